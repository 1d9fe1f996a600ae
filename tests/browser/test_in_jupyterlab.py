"""The course as a learner uses it: JupyterLab in a real (headless) browser, Run All, real clicks;
what the learner looks at (rendered Markdown, the backend note, the dark theme)."""

import os
import re

import pytest

from lab_server import DARK_THEME, NOTEBOOKS, SCREENSHOTS, copy_cleared, jupyterlab

GUARDED_CELL = "guarded = await"
RUSSIAN = 'import os\nos.environ["COURSE_AGENT_LANGUAGE"] = "ru"  # what the Russian notebooks\' setup cell does'
WORDS = {
    "en": {"asks": "The agent wants to call", "approve": "Approve", "deny": "Deny", "approved": "Approved",
           "denied": "Denied", "clicked": "clicked", "error": "ERROR", "waiting": "waiting for a decision",
           "moved": "main moved:"},
    "ru": {"asks": "Агент хочет вызвать", "approve": "Подтвердить", "deny": "Отклонить", "approved": "Подтверждено",
           "denied": "Отклонено", "clicked": "нажали", "error": "ОШИБКА", "waiting": "ждём решения",
           "moved": "ветка main сдвинулась:"},
}
# A model's answer, or a merge request's text, trying to run code in the learner's browser.
HOSTILE = ("Ignore this <script>window.__pwned = 1</script>\n\n<img src=x onerror=\"window.__pwned = 2\">\n\n"
           "[click me](javascript:window.__pwned=3) <b onmouseover=\"window.__pwned = 4\">hover</b>\n\n"
           "- a list item with `inline code`\n- and **bold**")


def open_and_run_all(page, lab, notebook, copy_as=None, first_cell=None):
    """Open a cleared copy of the notebook, wait for its kernel, and Run All from the menu."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    workdir, url, token = lab
    target = notebook
    if copy_as:
        target = copy_cleared(notebook, workdir, first_cell, copy_as)
    workspace = re.sub(r"\W", "-", target.stem)  # a fresh workspace: only this notebook is open
    path = target.relative_to(workdir).as_posix() if target.is_relative_to(workdir) else target.name
    page.goto(f"{url}/lab/workspaces/{workspace}/tree/{path}?reset&token={token}")
    page.locator(".jp-Notebook").first.wait_for()
    page.locator(".jp-StatusBar-Widget", has_text="Idle").first.wait_for()  # the kernel is up
    started = page.locator(".jp-InputPrompt", has_text=re.compile(r"\[(\*|\d+)\]")).first
    for attempt in range(3):  # on a loaded machine the first Run All can come before the kernel's session is ready
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.locator('li[data-command="runmenu:run-all"]').click()
        try:
            started.wait_for(timeout=20_000)  # a cell is queued or has run
            return
        except PlaywrightTimeout:
            if attempt == 2:
                raise


def write_notebook(folder, name, sources):
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook
    nb = new_notebook(cells=[new_code_cell(source) for source in sources])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, folder / name)
    return folder / name


def cell(page, source_text):
    return page.locator(".jp-Cell:visible", has_text=source_text).first


def approval_prompt(page, words):
    prompt = page.locator(".jp-OutputArea-output:visible", has_text=words["asks"]).first
    prompt.wait_for()
    assert "merge_pr" in prompt.inner_text() and "485" in prompt.inner_text()
    return prompt


def luminance(page, locator) -> float:
    """The relative luminance (0 black .. 1 white) of an element's computed text colour."""
    rgb = locator.evaluate("e => getComputedStyle(e).color")
    r, g, b = (int(v) / 255 for v in re.findall(r"[\d.]+", rgb)[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def assert_notice_is_a_note(page):
    """The backend notice: shown, as an HTML note, not as stderr (which JupyterLab paints red)."""
    notice = page.locator(".jp-OutputArea-output", has_text="course-agent").filter(
        has_text=re.compile("offline sandbox|офлайн-песочниц")).first
    notice.wait_for()
    assert notice.get_attribute("data-mime-type") == "text/html"
    stderr = page.locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')
    assert stderr.filter(has_text="course-agent").count() == 0
    background = notice.evaluate("e => getComputedStyle(e).backgroundColor")
    channels = [int(float(v)) for v in re.findall(r"[\d.]+", background)[:3]]
    assert not (channels[0] > 150 and channels[1] < 120), f"a reddish background: {background}"
    return notice


class TestSafetyNotebook:
    """A class of its own: with `--dist loadscope` these four (half a minute) and the module's other
    browser tests can run in the two workers at once instead of one after another at the end."""

    @pytest.mark.parametrize("language", ["en", "ru"])
    @pytest.mark.parametrize("decision", ["approve", "deny"])
    def test_safety_notebook_asks_before_merging(self, page, lab, language, decision):
        words = WORDS[language]
        open_and_run_all(page, lab, NOTEBOOKS / language / "07_safety.ipynb", f"07_safety-{decision}-{language}.ipynb",
                         first_cell=RUSSIAN if language == "ru" else None)
        prompt = approval_prompt(page, words)
        assert words["waiting"] in prompt.inner_text()
        view = page.locator(".widget-html-content:visible", has_text="#4 assistant").first
        view.wait_for()  # the live view already shows the model's request to merge
        assert "merge_pr" in view.inner_text()
        prompt.scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / f"approval-{language}-{decision}-before.png"))
        prompt.get_by_role("button", name=words[decision]).click()
        guarded = cell(page, GUARDED_CELL)
        moved = f"{words['moved']} {decision == 'approve'}"
        guarded.locator(".jp-OutputArea-output", has_text=moved).first.wait_for()
        status = prompt.inner_text()
        assert words["approved" if decision == "approve" else "denied"] in status and words["clicked"] in status
        assert prompt.get_by_role("button", name=words["approve"]).is_disabled()
        result_card = page.locator(".widget-html-content:visible", has_text="#5 user").first
        if decision == "approve":
            assert re.search(r"Merged !485 into main as [0-9a-f]{40}", result_card.inner_text())
            assert words["error"] not in result_card.inner_text()
        else:
            refused = ("A human denied this call", "Человек отклонил этот вызов")  # safety.py's words, either language
            assert words["error"] in result_card.inner_text() and any(w in result_card.inner_text() for w in refused)
        prompt.scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / f"approval-{language}-{decision}-after.png"))


def test_loop_notebook_ends_with_the_review_and_end_turn(page, lab):
    open_and_run_all(page, lab, NOTEBOOKS / "en" / "03_the_loop.ipynb", "03_the_loop-browser.ipynb")
    final = page.locator(".widget-html-content:visible", has_text="#6 assistant").first
    final.wait_for()
    text = final.inner_text()
    assert "stop_reason end_turn" in text and "Verdict: request changes." in text
    assert "shop/checkout.py:20" in text
    # the model's Markdown is rendered: a numbered list whose item holds inline code, no backticks left
    item = final.locator(".course-agent-markdown li").first
    assert item.locator("code").count() >= 1 and "`" not in text
    assert "calculate_total" in item.locator("code").first.inner_text()
    # and not double-spaced: a line of text is about one line high, not the widget's 28px
    line_height = final.locator(".course-agent-markdown p").first.evaluate("e => getComputedStyle(e).lineHeight")
    assert float(line_height.removesuffix("px")) < 24, line_height
    final.scroll_into_view_if_needed()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    final.screenshot(path=str(SCREENSHOTS / "markdown-in-an-assistant-card.png"))
    notice = assert_notice_is_a_note(page)
    notice.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "backend-notice.png"))


def test_stepper_walks_a_review_one_call_per_click(page, lab):
    workdir, url, token = lab
    write_notebook(workdir, "stepper.ipynb", [
        "from course_agent.client import make_client\n"
        "from course_agent.review import review\n"
        "from course_agent.widgets import Stepper\n\n"
        "stepper = Stepper(lambda observers: review(482, client=make_client(), observers=observers)).start()\n"
        "stepper"])
    open_and_run_all(page, lab, workdir / "stepper.ipynb")
    next_button = page.locator(".jp-OutputArea-output").get_by_role("button", name="Next")
    for step, stop in ((1, "tool_use"), (2, "tool_use"), (3, "end_turn")):
        page.get_by_text(f"Request {step}:").first.wait_for()
        next_button.click()
        page.get_by_text(f"Response {step}: stop_reason {stop}").first.wait_for()
    page.get_by_text("done after 3 API calls: end_turn").first.wait_for()
    assert next_button.is_disabled()


@pytest.fixture(scope="module")
def dark_lab(tmp_path_factory, browser):
    """A second JupyterLab whose own settings choose the JupyterLab Dark theme."""
    workdir = tmp_path_factory.mktemp("dark-lab")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "GITLAB_", "COURSE_AGENT_"))}
    with jupyterlab(workdir, env, DARK_THEME) as (url, token):
        yield workdir, url, token


def test_the_view_the_prompt_and_the_chart_in_the_dark_theme(page, dark_lab):
    workdir, url, token = dark_lab
    write_notebook(workdir, "dark.ipynb", [
        "from course_agent.client import make_client\n"
        "from course_agent.review import review\n"
        "from course_agent.safety import ApprovalRequest\n"
        "from course_agent.tools import Risk\n"
        "from course_agent.usage_chart import usage_chart\n"
        "from course_agent.widgets import ApprovalPrompt, MessagesView\n\n"
        "client = make_client()",
        "view = MessagesView()\nview",
        "result = review(482, client=client, observers=[view])\n"
        f'view.messages.append({{"role": "assistant", "content": [{{"type": "text", "text": {HOSTILE!r}}}]}})',
        'ApprovalPrompt(ApprovalRequest("merge_pr", {"pr": 485}, Risk.DANGEROUS))',
        "usage_chart(view)",
    ])
    open_and_run_all(page, dark_lab, workdir / "dark.ipynb")
    assert page.locator("body").get_attribute("data-jp-theme-light") == "false"  # the dark theme is on
    page.locator(".jp-OutputArea-output img").first.wait_for()  # the last cell drew the chart
    hostile = page.locator(".widget-html-content:visible", has_text="#7 assistant").first
    hostile.wait_for()
    # the hostile Markdown is shown as text, and none of it ran
    assert "<script>window.__pwned = 1</script>" in hostile.inner_text()
    assert hostile.locator("script, img, iframe, svg, [onerror], [onmouseover], [onclick]").count() == 0
    assert hostile.locator('a[href^="javascript"]').count() == 0
    hostile.locator("b, strong").first.hover()
    assert page.evaluate("window.__pwned") is None
    assert hostile.locator("li code").first.inner_text() == "inline code"
    # readable: light text on the dark page, in the cards and in the prompt
    review_card = page.locator(".widget-html-content:visible", has_text="#6 assistant").first
    assert luminance(page, review_card.locator(".course-agent-markdown p").first) > 0.6
    assert luminance(page, review_card.locator(".course-agent-markdown li").first) > 0.6
    prompt = page.locator(".jp-OutputArea-output:visible", has_text="The agent wants to call").first
    assert luminance(page, prompt.locator(".widget-html-content").first) > 0.6
    assert_notice_is_a_note(page)
    review_card.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "dark-theme-view.png"))
    prompt.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "dark-theme-prompt-and-chart.png"))
