"""The nbgitpuller link of a class (course_agent.classroom, `course-agent classroom-link`): nbgitpuller's documented
form, `<hub>/hub/user-redirect/git-pull?repo=...&urlpath=...&branch=...` with each value form-encoded (as its link
generator's URLSearchParams writes them), opening notebook 1 of the learner's language in JupyterLab, in the folder
nbgitpuller clones into. tests/classroom/test_hub.py follows such a link on a real hub."""

import subprocess
from urllib.parse import parse_qs, urlsplit

import pytest

from course_agent.classroom import clone_folder, nbgitpuller_link, notebook_path
from course_agent.cli import main

REPO = "https://github.com/example/agent-course"


def _parts(link: str) -> tuple[str, dict]:
    split = urlsplit(link)
    query = parse_qs(split.query, strict_parsing=True)
    assert all(len(values) == 1 for values in query.values())
    return f"{split.scheme}://{split.netloc}{split.path}", {key: values[0] for key, values in query.items()}


def test_the_link_has_nbgitpullers_form():
    link = nbgitpuller_link("https://hub.example.org", REPO, "main", "en")
    assert link == ("https://hub.example.org/hub/user-redirect/git-pull?repo=https%3A%2F%2Fgithub.com%2Fexample%2F"
                    "agent-course&urlpath=lab%2Ftree%2Fagent-course%2Fnotebooks%2Fen%2F01_single_call.ipynb"
                    "&branch=main")


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_link_opens_notebook_1_of_the_language_in_jupyterlab(language):
    _, query = _parts(nbgitpuller_link("https://hub.example.org", REPO, "main", language))
    assert query == {"repo": REPO, "branch": "main",
                     "urlpath": f"lab/tree/agent-course/notebooks/{language}/01_single_call.ipynb"}


def test_a_branch_and_a_repository_with_odd_characters_survive_the_encoding():
    branch = "class/2026 spring&ru=да#1"
    repo = "https://git.example.org/a b/курс?x=1"
    link = nbgitpuller_link("https://hub.example.org", repo, branch, "ru")
    assert " " not in link and "#" not in link and link.count("&") == 2 and link.isascii()
    _, query = _parts(link)
    assert query["branch"] == branch and query["repo"] == repo
    assert query["urlpath"] == "lab/tree/курс?x=1/notebooks/ru/01_single_call.ipynb"


def test_a_hub_under_a_path_keeps_it_and_a_trailing_slash_is_not_doubled():
    base, _ = _parts(nbgitpuller_link("https://school.example.org/jupyter/", REPO, "main"))
    assert base == "https://school.example.org/jupyter/hub/user-redirect/git-pull"


def test_the_clone_folder_is_nbgitpullers():
    # nbgitpuller's page: targetpath = repo.rstrip('/').split('/')[-1] (".git" kept)
    assert clone_folder(REPO) == "agent-course"
    assert clone_folder(REPO + "/") == "agent-course"
    assert clone_folder("https://gitlab.example.org/group/course.git") == "course.git"
    assert notebook_path("/srv/course-repo", "ru") == "course-repo/notebooks/ru/01_single_call.ipynb"


@pytest.mark.parametrize("bad", [dict(hub="hub.example.org"), dict(language="de"), dict(branch=""),
                                 dict(repo="/")])
def test_bad_values_are_refused(bad):
    values = dict(hub="https://hub.example.org", repo=REPO, branch="main", language="en") | bad
    with pytest.raises(ValueError):
        nbgitpuller_link(**values)


def test_the_command_prints_the_link(capsys):
    assert main(["classroom-link", "--hub", "https://hub.example.org", "--repo", REPO, "--branch", "spring",
                 "--language", "ru"]) == 0
    out = capsys.readouterr().out
    assert out == nbgitpuller_link("https://hub.example.org", REPO, "spring", "ru") + "\n"


def test_the_command_takes_the_checkouts_https_origin(tmp_path, monkeypatch, capsys):
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "remote", "add", "origin", REPO + ".git"], cwd=tmp_path, check=True)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", "en")
    assert main(["classroom-link", "--hub", "https://hub.example.org"]) == 0
    _, query = _parts(capsys.readouterr().out.strip())
    assert query["repo"] == REPO + ".git" and query["branch"] == "main"
    assert query["urlpath"] == "lab/tree/agent-course.git/notebooks/en/01_single_call.ipynb"


@pytest.mark.parametrize("lang, words", [("en", "name the course's repository with --repo"),
                                         ("ru", "укажите репозиторий курса в --repo")])
def test_without_a_clonable_repository_it_is_exit_2_in_one_line(tmp_path, monkeypatch, capsys, lang, words):
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "remote", "add", "origin", "git@github.com:example/agent-course.git"], cwd=tmp_path,
                   check=True)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", lang)
    assert main(["classroom-link", "--hub", "https://hub.example.org"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and words in captured.err


def test_a_hub_without_a_scheme_is_exit_2(capsys, monkeypatch):
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", "ru")
    assert main(["classroom-link", "--hub", "hub.example.org", "--repo", REPO]) == 2
    assert "адрес хаба должен начинаться с http:// или https://" in capsys.readouterr().err


@pytest.mark.parametrize("call, en, ru", [
    (lambda: nbgitpuller_link("https://hub.example", "https://example.org/course", branch=""),
     "the branch is empty", "не указана ветка"),
    (lambda: nbgitpuller_link("https://hub.example", "https://example.org/course", language="de"),
     "language must be one of", "язык должен быть одним из"),
    (lambda: nbgitpuller_link("https://hub.example", "/"), "not a repository address", "это не адрес репозитория"),
    (lambda: nbgitpuller_link("hub.example", "https://example.org/course"), "must start with http", "должен начинаться"),
])
def test_a_bad_link_is_explained_in_the_instructors_language(monkeypatch, call, en, ru):
    for language, words in (("en", en), ("ru", ru)):
        monkeypatch.setenv("COURSE_AGENT_LANGUAGE", language)
        with pytest.raises(ValueError, match=words):
            call()
