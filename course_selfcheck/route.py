"""Where a request of the learner's loop goes during a scenario: the scenario's sandbox, whatever
address the loop's client was built with, and with the sandbox's credentials, not the learner's.

Pure rewriting of addresses and headers (no I/O): intercept.py applies it where requests leave
the process, for the anthropic SDK (httpx2) and for python-gitlab (requests).
"""

import re
from collections.abc import MutableMapping
from dataclasses import dataclass
from urllib.parse import parse_qsl, quote, urlencode

GITLAB_API = "/api/v4/"
MESSAGES_API = "/v1/"
CREDENTIAL_HEADERS = frozenset({"x-api-key", "authorization", "proxy-authorization", "private-token", "job-token",
                                "cookie", "host"})
"""Headers that carry who the learner is (or where the request was meant to go): never sent on."""
CREDENTIAL_PARAMETERS = frozenset({"private_token", "access_token", "job_token"})
"""GitLab also takes a token in the query."""
_PROJECT = re.compile(r"^/api/v4/projects/[^/?]+")


@dataclass(frozen=True)
class Route:
    """A scenario's sandbox, as the place every request of the check goes."""

    host: str
    port: int
    api_key: str
    gitlab_token: str
    project: str

    @property
    def origin(self) -> str:
        return f"http://{self.host}:{self.port}"

    def owns(self, scheme: str, host: str, port: int | None) -> bool:
        """True for a request already addressed to this sandbox: it goes as it is."""
        return scheme == "http" and host == self.host and port == self.port

    def target(self, path_and_query: str) -> str:
        """The sandbox's URL for a request the loop addressed elsewhere: the same API path (after any
        prefix of the learner's base URL), the learner's GitLab project as the sandbox's, and no token
        in the query."""
        path, _, query = path_and_query.partition("?")
        for api in (GITLAB_API, MESSAGES_API):
            start = path.find(api)
            if start >= 0:
                path = path[start:]
                break
        path = _PROJECT.sub("/api/v4/projects/" + quote(self.project, safe=""), path, count=1)
        pairs = parse_qsl(query, keep_blank_values=True)
        if any(k.lower() in CREDENTIAL_PARAMETERS for k, _ in pairs):
            query = urlencode([(k, v) for k, v in pairs if k.lower() not in CREDENTIAL_PARAMETERS])
        return self.origin + path + ("?" + query if query else "")

    def credentials(self, url: str) -> dict[str, str]:
        """The sandbox's own credential for the API this URL belongs to."""
        if GITLAB_API in url:
            return {"PRIVATE-TOKEN": self.gitlab_token}
        return {"x-api-key": self.api_key}


def sign(route: Route, url: str, headers: MutableMapping[str, str]) -> None:
    """Take every credential of the learner's out of these headers, and put the sandbox's in."""
    for name in [k for k in headers if k.lower() in CREDENTIAL_HEADERS]:
        headers.pop(name, None)
    headers.update(route.credentials(url))
