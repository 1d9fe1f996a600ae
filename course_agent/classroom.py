"""The course in a class on JupyterHub: the nbgitpuller link that puts the course into a learner's home.

An instructor hands out one link per language; clicking it logs the learner into the hub, starts their
server, clones the course into their home (or, on a later click, merges the new commits into their copy,
keeping the learner's own edits, as nbgitpuller does) and opens notebook 1 in JupyterLab in that language.
The link has nbgitpuller's documented form (its link generator, nbgitpuller.readthedocs.io/en/latest/link.html):
`<hub>/hub/user-redirect/git-pull?repo=<repo>&urlpath=<urlpath>&branch=<branch>`, each value form-encoded.
classroom/jupyterhub_config.py makes the same pull the hub's default page; `course-agent classroom-link` prints it.
"""

from urllib.parse import urlencode

from .i18n import tr
from .settings import LANGUAGES

FIRST_NOTEBOOK = "01_single_call.ipynb"


def clone_folder(repo: str) -> str:
    """The folder of the learner's home nbgitpuller clones `repo` into: the last part of its address, as
    nbgitpuller's own page takes it when the link has no targetpath (`.git` included, when the address has it)."""
    name = repo.rstrip("/").split("/")[-1]
    if not name:
        raise ValueError(tr("not a repository address: {repo!r}", repo=repo))
    return name


def notebook_path(repo: str, language: str = "en", notebook: str = FIRST_NOTEBOOK) -> str:
    """Where a notebook of the learner's language is, relative to their home, once the course is pulled."""
    if language not in LANGUAGES:
        raise ValueError(tr("the language must be one of {choices}, got {language!r}", choices=", ".join(LANGUAGES),
                            language=language))
    return f"{clone_folder(repo)}/notebooks/{language}/{notebook}"


def pull_query(repo: str, branch: str = "main", language: str = "en", notebook: str = FIRST_NOTEBOOK) -> str:
    """nbgitpuller's query: which repository and branch to pull, and the page to open after (JupyterLab)."""
    if not branch:
        raise ValueError(tr("the branch is empty"))
    return urlencode({"repo": repo, "urlpath": "lab/tree/" + notebook_path(repo, language, notebook),
                      "branch": branch})


def nbgitpuller_link(hub: str, repo: str, branch: str = "main", language: str = "en",
                     notebook: str = FIRST_NOTEBOOK) -> str:
    """The link to hand out: through the hub's user-redirect, so it works for every learner of the hub."""
    if not hub.startswith(("http://", "https://")):
        raise ValueError(tr("the hub's address must start with http:// or https://, got {hub!r}", hub=hub))
    return f"{hub.rstrip('/')}/hub/user-redirect/git-pull?{pull_query(repo, branch, language, notebook)}"
