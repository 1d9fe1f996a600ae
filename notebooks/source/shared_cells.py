# %% lang="en" name="setup"
import os

import anthropic

from course_agent.client import make_client
from course_agent.config import model_id

os.environ["COURSE_AGENT_LANGUAGE"] = "en"  # the language of everything course_agent shows
client = make_client()  # a real anthropic.Anthropic: the offline sandbox, or the live API if ANTHROPIC_API_KEY is set
MODEL = model_id()

# %% lang="ru" name="setup"
import os

import anthropic

from course_agent.client import make_client
from course_agent.config import model_id

os.environ["COURSE_AGENT_LANGUAGE"] = "ru"  # язык всего, что показывает course_agent
# настоящий anthropic.Anthropic: офлайн-песочница или настоящий API, если задан ANTHROPIC_API_KEY
client = make_client()
MODEL = model_id()

# %% lang="en" name="gitlab"
import gitlab

from course_agent.client import gitlab_settings

url, token, project_path = gitlab_settings()  # GITLAB_URL / GITLAB_TOKEN / GITLAB_PROJECT, or the sandbox's demo GitLab
project = gitlab.Gitlab(url, private_token=token).projects.get(project_path)
print(project.path_with_namespace)

# %% lang="ru" name="gitlab"
import gitlab

from course_agent.client import gitlab_settings

url, token, project_path = gitlab_settings()  # GITLAB_URL / GITLAB_TOKEN / GITLAB_PROJECT или демо-GitLab песочницы
project = gitlab.Gitlab(url, private_token=token).projects.get(project_path)
print(project.path_with_namespace)

# %% lang="en" name="review_rules"
REVIEW_RULES = """You review GitLab merge requests. Start with get_diff. When a change alters a function that is
used elsewhere, read the files that use it with read_file. Cite findings as path:line.
End with a line "Verdict: approve." or "Verdict: request changes."
"""

# %% lang="ru" name="review_rules"
REVIEW_RULES = """Ты проверяешь merge request в GitLab. Начни с get_diff. Если изменение затрагивает функцию,
которая используется в других местах, прочитай эти файлы через read_file. Ссылайся на path:line.
Закончи строкой "Вердикт: можно вливать." или "Вердикт: нужны исправления."
"""

# %% lang="en" name="tools"
def get_diff(pr: int) -> str:
    """The changes of merge request !pr: title, source branch, description and the diff of every file."""
    mr = project.mergerequests.get(pr)
    parts = [f"Title: {mr.title}", f"source_branch: {mr.source_branch}", f"Description: {mr.description}", ""]
    for change in mr.changes()["changes"]:
        parts.append(f"diff --git a/{change['old_path']} b/{change['new_path']}")
        parts.append(change["diff"] or "(diff too large to show: read the file instead)")
    return "\n".join(parts)


def read_file(path: str, ref: str = "main") -> str:
    """A whole file of the repository, at a branch or commit."""
    return project.files.raw(path, ref=ref).decode("utf-8")


TOOLS = [
    {
        "name": "get_diff",
        "description": "Get the changes of a merge request: title, source branch and the diff of every file.",
        "input_schema": {
            "type": "object",
            "properties": {"pr": {"type": "integer", "description": "The merge request number, e.g. 482."}},
            "required": ["pr"],
        },
    },
    {
        "name": "read_file",
        "description": "Read a whole file from the repository at a branch (default main): the code around a change, "
                       "or the callers of a function the change alters.",
        "input_schema": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "The file's path from the repository root."},
                "ref": {"type": "string", "description": "The branch or commit to read; the merge request's "
                                                         "source_branch shows the changed file."},
            },
            "required": ["path"],
        },
    },
]
FUNCTIONS = {"get_diff": get_diff, "read_file": read_file}


def run_tool(name: str, tool_input: dict) -> str:
    """An ordinary dispatcher: the tool's name picks the function. Nothing AI about it."""
    return FUNCTIONS[name](**tool_input)

# %% lang="ru" name="tools"
def get_diff(pr: int) -> str:
    """Изменения merge request !pr: заголовок, исходная ветка, описание и diff каждого файла."""
    mr = project.mergerequests.get(pr)
    parts = [f"Title: {mr.title}", f"source_branch: {mr.source_branch}", f"Description: {mr.description}", ""]
    for change in mr.changes()["changes"]:
        parts.append(f"diff --git a/{change['old_path']} b/{change['new_path']}")
        parts.append(change["diff"] or "(diff слишком большой, не показан: прочитай файл)")
    return "\n".join(parts)


def read_file(path: str, ref: str = "main") -> str:
    """Файл репозитория целиком, из ветки или коммита."""
    return project.files.raw(path, ref=ref).decode("utf-8")


TOOLS = [
    {
        "name": "get_diff",
        "description": "Get the changes of a merge request: title, source branch and the diff of every file.",
        "input_schema": {
            "type": "object",
            "properties": {"pr": {"type": "integer", "description": "The merge request number, e.g. 482."}},
            "required": ["pr"],
        },
    },
    {
        "name": "read_file",
        "description": "Read a whole file from the repository at a branch (default main): the code around a change, "
                       "or the callers of a function the change alters.",
        "input_schema": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "The file's path from the repository root."},
                "ref": {"type": "string", "description": "The branch or commit to read; the merge request's "
                                                         "source_branch shows the changed file."},
            },
            "required": ["path"],
        },
    },
]
FUNCTIONS = {"get_diff": get_diff, "read_file": read_file}


def run_tool(name: str, tool_input: dict) -> str:
    """Обычный диспетчер: имя инструмента выбирает функцию. Никакого ИИ здесь нет."""
    return FUNCTIONS[name](**tool_input)

# %% lang="en" name="lesson_tools"
from lesson_tools import FUNCTIONS, REVIEW_RULES, TOOLS, get_diff, project, read_file, run_tool  # notebook 3's cells

# %% lang="ru" name="lesson_tools"
from lesson_tools import FUNCTIONS, REVIEW_RULES, TOOLS, get_diff, project, read_file, run_tool  # ячейки блокнота 3

# %% lang="en" name="gate_tools"
MERGE = {"name": "merge_pr", "description": "Merge a merge request into main.",
         "input_schema": {"type": "object", "required": ["pr"], "properties": {
             "pr": {"type": "integer", "description": "The number of the merge request to merge, e.g. 482."}}}}
DANGEROUS = ["merge_pr"]


def merge_pr(pr: int) -> str:
    """Merge merge request !pr into main: the tool that must never run without a human's yes."""
    project.mergerequests.get(pr).merge()
    return f"merged !{pr}"


FUNCTIONS["merge_pr"] = merge_pr
TOOLS = TOOLS[:2] + [MERGE]  # notebook 3's two tools, then merge_pr (the same when this cell runs again)


def ask_human(name: str, tool_input: dict) -> bool:
    """Ask in the notebook; anything but "yes" is a no, and so is having no one to ask (input() raises)."""
    try:
        return input(f"{name} {tool_input}: run it? [yes/no] ").strip().lower() == "yes"
    except Exception:
        return False

# %% lang="ru" name="gate_tools"
MERGE = {"name": "merge_pr", "description": "Merge a merge request into main.",
         "input_schema": {"type": "object", "required": ["pr"], "properties": {
             "pr": {"type": "integer", "description": "The number of the merge request to merge, e.g. 482."}}}}
DANGEROUS = ["merge_pr"]


def merge_pr(pr: int) -> str:
    """Влить merge request !pr в main: инструмент, который нельзя выполнять без подтверждения человека."""
    project.mergerequests.get(pr).merge()
    return f"merged !{pr}"


FUNCTIONS["merge_pr"] = merge_pr
TOOLS = TOOLS[:2] + [MERGE]  # два инструмента блокнота 3, затем merge_pr (то же самое при повторном запуске)


def ask_human(name: str, tool_input: dict) -> bool:
    """Спросить в блокноте; всё, кроме «да», — это «нет», как и отсутствие того, кого спросить (input() выбрасывает
    исключение)."""
    try:
        return input(f"{name} {tool_input}: подтвердить? [да/нет] ").strip().lower() == "да"
    except Exception:
        return False

# %% lang="en" name="pause_turn_demo"
WEB_SEARCH = [{"type": "web_search_20250305", "name": "web_search"}]
messages = [{"role": "user", "content": "Search the web for the latest python-gitlab release."}]
paused = client.messages.create(model=MODEL, max_tokens=2000, tools=WEB_SEARCH, messages=messages)
print(paused.stop_reason, [b.type for b in paused.content])

messages.append({"role": "assistant", "content": paused.content})  # the paused response, and no new user message
finished = client.messages.create(model=MODEL, max_tokens=2000, tools=WEB_SEARCH, messages=messages)
print(finished.stop_reason, [b.type for b in finished.content])

# %% lang="ru" name="pause_turn_demo"
WEB_SEARCH = [{"type": "web_search_20250305", "name": "web_search"}]
messages = [{"role": "user", "content": "Найди в интернете последний релиз python-gitlab."}]
paused = client.messages.create(model=MODEL, max_tokens=2000, tools=WEB_SEARCH, messages=messages)
print(paused.stop_reason, [b.type for b in paused.content])

messages.append({"role": "assistant", "content": paused.content})  # приостановленный ответ и никакого сообщения от user
finished = client.messages.create(model=MODEL, max_tokens=2000, tools=WEB_SEARCH, messages=messages)
print(finished.stop_reason, [b.type for b in finished.content])

# %% lang="en" name="paged_read"
def read_file(path: str, ref: str = "main", start: int = 0) -> str:
    """A file of the repository from character `start` on: after a cut, `start` reads the rest."""
    return project.files.raw(path, ref=ref).decode("utf-8")[start:]


READ_FILE = {
    "name": "read_file",
    "description": "Read a file from the repository at a branch (default main), from character `start` on (default "
                   "0, the beginning): the code around a change, or the callers of a function the change alters.",
    "input_schema": {
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "The file's path from the repository root."},
            "ref": {"type": "string", "description": "The branch or commit to read; the merge request's "
                                                     "source_branch shows the changed file."},
            "start": {"type": "integer", "description": "The character to read from: the start a cut result names."},
        },
        "required": ["path"],
    },
}
FUNCTIONS["read_file"] = read_file  # run_tool picks the function from FUNCTIONS: now this one
TOOLS = [READ_FILE if tool["name"] == "read_file" else tool for tool in TOOLS]

# %% lang="ru" name="paged_read"
def read_file(path: str, ref: str = "main", start: int = 0) -> str:
    """Файл репозитория начиная с символа `start`: так после обрезки можно дочитать остальное."""
    return project.files.raw(path, ref=ref).decode("utf-8")[start:]


READ_FILE = {
    "name": "read_file",
    "description": "Read a file from the repository at a branch (default main), from character `start` on (default "
                   "0, the beginning): the code around a change, or the callers of a function the change alters.",
    "input_schema": {
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "The file's path from the repository root."},
            "ref": {"type": "string", "description": "The branch or commit to read; the merge request's "
                                                     "source_branch shows the changed file."},
            "start": {"type": "integer", "description": "The character to read from: the start a cut result names."},
        },
        "required": ["path"],
    },
}
FUNCTIONS["read_file"] = read_file  # run_tool берёт функцию из FUNCTIONS: теперь эту
TOOLS = [READ_FILE if tool["name"] == "read_file" else tool for tool in TOOLS]

# %% lang="en" name="runner_tools"
from anthropic import beta_tool

from course_agent.gitlab import GitLabTools

tools = GitLabTools()


# the docstring is the tool's description for the model, like description in TOOLS
@beta_tool
def get_diff(pr: int) -> str:
    """Get the changes of a merge request: title, source branch and the diff of every file."""
    return tools.get_diff(pr)


@beta_tool
def read_file(path: str, ref: str = "main") -> str:
    """Read a whole file from the repository at a branch, for context."""
    return tools.read_file(path, ref)

# %% lang="ru" name="runner_tools"
from anthropic import beta_tool

from course_agent.gitlab import GitLabTools

tools = GitLabTools()


# строка документации — это описание инструмента для модели, поэтому она английская, как description в TOOLS
@beta_tool
def get_diff(pr: int) -> str:
    """Get the changes of a merge request: title, source branch and the diff of every file."""
    return tools.get_diff(pr)


@beta_tool
def read_file(path: str, ref: str = "main") -> str:
    """Read a whole file from the repository at a branch, for context."""
    return tools.read_file(path, ref)

# %% lang="en" name="take_home_setup"
from course_agent.client import take_home_variables

os.environ.update(take_home_variables())  # offline: the sandbox's addresses; variables you set yourself stay

# %% lang="ru" name="take_home_setup"
from course_agent.client import take_home_variables

os.environ.update(take_home_variables())  # офлайн: адреса песочницы; переменные, которые вы задали сами, не меняются
