"""The demo GitLab answers project search in code (`GET /projects/:id/search?scope=blobs`), as python-gitlab's
`project.search("blobs", text)` calls it: GitLab's fields for each result, the ref searched, context lines, and
Grape's 400s for a missing or unknown scope and a missing search."""

import gitlab
import pytest

FIELDS = {"basename", "data", "path", "filename", "id", "ref", "startline", "project_id"}


def test_search_finds_the_callers_of_a_function_with_gitlabs_fields(project):
    found = project.search("blobs", "calculate_total(")
    assert [r["path"] for r in found] == ["shop/cart.py", "shop/checkout.py", "shop/pricing.py"]
    for result in found:
        assert set(result) == FIELDS, result
        assert result["filename"] == result["path"] and result["id"] is None and result["ref"] == "main"
        assert result["basename"] == result["path"].removesuffix(".py") and result["project_id"] == project.id
    checkout = found[1]
    lines = checkout["data"].splitlines()
    match = next(i for i, line in enumerate(lines) if "calculate_total(" in line)
    assert match == 2 and len(lines) == 4  # two lines of context before; the file ends one line after
    source = project.files.raw("shop/checkout.py", ref="main").decode().splitlines()
    assert source[checkout["startline"] - 1: checkout["startline"] - 1 + len(lines)] == lines  # startline from 1


def test_search_is_case_insensitive_literal_and_reads_the_ref_asked_for(project):
    assert project.search("blobs", "CALCULATE_TOTAL(") == project.search("blobs", "calculate_total(")
    assert project.search("blobs", "calculate_total(.*") == []  # literal, not a pattern
    on_branch = project.search("blobs", "class Discount", ref="feature/discount-object")
    assert [(r["ref"], r["path"]) for r in on_branch] == [("feature/discount-object", "shop/pricing.py")]
    assert project.search("blobs", "class Discount") == []  # main has no Discount class yet
    assert project.search("blobs", "calculate_total", ref="no-such-branch") == []


def test_nearby_matches_merge_into_one_result_and_non_ascii_paths_are_found(project):
    found = project.search("blobs", "Руководство")
    assert found and found[0]["path"] == "docs/Руководство покупателя.md" and found[0]["startline"] == 1
    assert found[0]["basename"] == "docs/Руководство покупателя"
    pricing = [r for r in project.search("blobs", "def ") if r["path"] == "shop/pricing.py"]
    starts = [r["startline"] for r in pricing]
    assert starts == sorted(starts) and all(b - a > 1 for a, b in zip(starts, starts[1:], strict=False))


def test_search_pages_like_every_list(project):
    every = project.search("blobs", "e", get_all=True)
    first = project.search("blobs", "e", per_page=3, page=1)
    second = project.search("blobs", "e", per_page=3, page=2)
    assert first + second == every[:6]


@pytest.mark.parametrize("query, error", [({"scope": "issues", "search": "x"}, "scope does not have a valid value"),
                                          ({"search": "x"}, "scope is missing"),
                                          ({"scope": "blobs"}, "search is missing")])
def test_grapes_400s(gl, project, query, error):
    with pytest.raises(gitlab.GitlabHttpError) as raised:
        gl.http_get(f"/projects/{project.id}/search", query_data=query)
    assert raised.value.response_code == 400 and error in str(raised.value)


def test_the_wiki_scope_finds_nothing(project):
    assert project.search("wiki_blobs", "calculate_total") == []
