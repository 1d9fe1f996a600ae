"""The API's cursor pagination for list endpoints (`/v1/models`, `/v1/messages/batches`):
`limit`, `before_id`, `after_id` in; `data`, `has_more`, `first_id`, `last_id` out."""

from collections.abc import Mapping, Sequence

from .errors import invalid

DEFAULT_LIMIT = 20
MAX_LIMIT = 1000


def _limit(query: Mapping[str, str]) -> int:
    raw = query.get("limit")
    if raw is None:
        return DEFAULT_LIMIT
    try:
        limit = int(raw)
    except ValueError:
        raise invalid("limit: Input should be a valid integer, unable to parse string as an integer") from None
    if limit < 1:
        raise invalid("limit: Input should be greater than or equal to 1")
    if limit > MAX_LIMIT:
        raise invalid(f"limit: Input should be less than or equal to {MAX_LIMIT}")
    return limit


def page(items: Sequence[dict], query: Mapping[str, str]) -> dict:
    """One page of `items` (already in list order, each with an `id`).

    `after_id` gives the items after that one, `before_id` those before it (the page nearest to
    it); an id that is not in the list gives an empty page, as a cursor past the end does.
    """
    limit = _limit(query)
    ids = [item["id"] for item in items]
    start, end = 0, len(items)
    for name in ("after_id", "before_id"):
        cursor = query.get(name)
        if cursor is None:
            continue
        if cursor not in ids:
            start, end = 0, 0
            break
        if name == "after_id":
            start = max(start, ids.index(cursor) + 1)
        else:
            end = min(end, ids.index(cursor))
    window = list(items[start:end])
    if query.get("before_id") is not None and query.get("after_id") is None:
        chosen, has_more = window[-limit:], len(window) > limit
    else:
        chosen, has_more = window[:limit], len(window) > limit
    return {
        "data": chosen,
        "has_more": has_more,
        "first_id": chosen[0]["id"] if chosen else None,
        "last_id": chosen[-1]["id"] if chosen else None,
    }
