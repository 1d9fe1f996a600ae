"""Label routes (docs.gitlab.com/api/labels/, /api/resource_label_events/): the project's labels
(`search`, `with_counts`), one label by id or name, and a merge request's label events."""

from werkzeug.wrappers import Response

from .errors import not_found
from .routing import Call, json_response, route


def list_labels(call: Call) -> Response:
    search = (call.request.args.get("search") or "").lower()
    with_counts = call.flag("with_counts", False)
    labels = [label for label in call.project.labels.all() if search in label.name.lower()]
    return call.paginated([label.view(_open_merge_requests(call, label.name) if with_counts else None)
                           for label in labels])


def get_label(call: Call) -> Response:
    label = call.project.labels.find(call.args["label_id"])
    if label is None:
        raise not_found("Label Not Found")
    return json_response(label.view())


def _open_merge_requests(call: Call, name: str) -> int:
    return sum(1 for mr in call.project.merge_requests.values() if mr.state == "opened" and name in mr.labels)


def label_events(call: Call) -> Response:
    mr = call.project.get(call.iid())
    return call.paginated([event.view() for event in call.project.labels.events_of(mr.spec.iid)])


def label_event(call: Call) -> Response:
    mr = call.project.get(call.iid())
    event_id = call.int_arg("event_id")
    event = next((e for e in call.project.labels.events_of(mr.spec.iid) if e.id == event_id), None)
    if event is None:
        raise not_found()
    return json_response(event.view())


ROUTES = [
    route("GET", "labels", list_labels),
    route("GET", "labels/:label_id", get_label),
    route("GET", "merge_requests/:iid/resource_label_events", label_events),
    route("GET", "merge_requests/:iid/resource_label_events/:event_id", label_event),
]
