"""Text as sanitised Markdown, code as highlighted HTML: cheap, deterministic, readable in any theme.

Model answers are Markdown, so text blocks are rendered with markdown-it (one instance, made on
first use). What they say comes from a model and from merge requests, so nothing in them may
become live HTML: raw HTML is off (a `<script>` or an `<img onerror=...>` is shown as text),
links are kept only for http, https and mailto (anything else stays plain text), and images are
not loaded (a model's image link shows as a link). Code (tool inputs, tool results, fenced
blocks) is coloured by Pygments with inline styles that use JupyterLab's own editor colours
(CSS variables, with light-theme fallbacks for static exports), so the dark theme works too.

Every colour and size is inline: the HTML widget shows its value as it is, and a saved notebook's
static HTML has no stylesheet of ours.
"""

import html
import re
import threading
from functools import lru_cache
from typing import Any

HIGHLIGHT_LIMIT = 20_000  # longer code is shown plain (colouring costs about 2 µs a character)
SAFE_SCHEMES = ("http", "https", "mailto")

CODE_FONT = "font-family:var(--jp-code-font-family,monospace);font-size:var(--jp-code-font-size,12px)"
PRE_STYLE = (f"white-space:pre-wrap;word-break:break-word;margin:3px 0;padding:4px 6px;line-height:1.35;{CODE_FONT};"
             "background:var(--jp-cell-editor-background,#f7f7f7);color:var(--jp-content-font-color1,#212121);"
             "border:1px solid var(--jp-border-color2,#e0e0e0);border-radius:3px")
INLINE_CODE_STYLE = (f"{CODE_FONT};background:var(--jp-layout-color2,#eee);color:var(--jp-content-font-color1,#212121);"
                     "padding:0 3px;border-radius:3px")
_BLOCK_STYLES = {
    "paragraph_open": "margin:0 0 4px 0",
    "bullet_list_open": "margin:2px 0 4px 0;padding-left:22px",
    "ordered_list_open": "margin:2px 0 4px 0;padding-left:22px",
    "blockquote_open": ("margin:4px 0;padding-left:8px;border-left:3px solid var(--jp-border-color1,#bdbdbd);"
                        "color:var(--jp-content-font-color2,#555)"),
    "table_open": "border-collapse:collapse;margin:4px 0",
    "th_open": "border:1px solid var(--jp-border-color1,#bdbdbd);padding:2px 6px",
    "td_open": "border:1px solid var(--jp-border-color1,#bdbdbd);padding:2px 6px",
    "hr": "border:none;border-top:1px solid var(--jp-border-color1,#bdbdbd);margin:6px 0",
    "code_block": PRE_STYLE,
}
_HEADING_SIZES = {"h1": "1.3em", "h2": "1.2em", "h3": "1.1em", "h4": "1em", "h5": "1em", "h6": "1em"}
_LINK_STYLE = "color:var(--jp-content-link-color,#1976d2);text-decoration:underline"


# Colours of code tokens: JupyterLab's CodeMirror variables (jupyterlab_pygments uses the same), light fallbacks.
def _colour(name: str, fallback: str, extra: str = "") -> str:
    return f"color:var(--jp-mirror-editor-{name}-color,{fallback}){extra}"


_TOKEN_STYLES: dict[str, str] = {
    "Keyword": _colour("keyword", "#008000", ";font-weight:bold"),
    "Keyword.Constant": _colour("keyword", "#008000", ";font-weight:bold"),
    "Name.Builtin": _colour("builtin", "#008000"),
    "Name.Function": _colour("def", "#0000ff"),
    "Name.Class": _colour("def", "#0000ff", ";font-weight:bold"),
    "Name.Decorator": _colour("meta", "#aa22ff"),
    "Name.Tag": _colour("property", "#0055aa"),          # JSON keys
    "Name.Attribute": _colour("attribute", "#0000cc"),
    "String": _colour("string", "#ba2121"),
    "String.Doc": _colour("comment", "#408080", ";font-style:italic"),
    "Number": _colour("number", "#008800"),
    "Operator": _colour("operator", "#7800c2"),
    "Operator.Word": _colour("keyword", "#008000", ";font-weight:bold"),
    "Comment": _colour("comment", "#408080", ";font-style:italic"),
    "Generic.Inserted": "color:var(--jp-success-color1,#388e3c)",
    "Generic.Deleted": "color:var(--jp-error-color1,#d32f2f)",
    "Generic.Subheading": _colour("meta", "#aa22ff"),
    "Generic.Heading": "font-weight:bold",
    "Generic.Strong": "font-weight:bold",
    "Generic.Emph": "font-style:italic",
    "Error": _colour("error", "#ff0000"),
}

_lock = threading.Lock()
_markdown: Any = None


def esc(text: str) -> str:
    return html.escape(text, quote=True)


def _safe_link(url: str) -> bool:
    """Only http, https and mailto links become links; javascript:, data:, file:, relative paths do not."""
    scheme = re.match(r"\s*([a-zA-Z][a-zA-Z0-9+.-]*):", url)
    return bool(scheme) and scheme.group(1).lower() in SAFE_SCHEMES


def _style_tokens(state: Any) -> None:
    """A core rule: inline styles on the tags the renderer writes (no stylesheet reaches a widget)."""
    for token in state.tokens:
        style = _BLOCK_STYLES.get(token.type)
        if token.type == "heading_open":
            style = f"font-size:{_HEADING_SIZES.get(token.tag, '1em')};margin:6px 0 3px 0;font-weight:bold"
        if style:
            token.attrSet("style", style)
        for child in token.children or ():
            if child.type == "code_inline":
                child.attrSet("style", INLINE_CODE_STYLE)
            elif child.type == "link_open":
                child.attrSet("style", _LINK_STYLE)
                child.attrSet("target", "_blank")
                child.attrSet("rel", "noopener noreferrer nofollow")


def _fence(code: str, language: str, _attrs: str) -> str:
    return f"<pre style='{PRE_STYLE}'><code>{highlight(code, lexer_name=language or None)}</code></pre>"


def markdown_renderer() -> Any:
    """The one MarkdownIt instance (made on first use: importing the widgets stays cheap)."""
    global _markdown
    if _markdown is None:
        with _lock:
            if _markdown is None:
                from markdown_it import MarkdownIt

                md = MarkdownIt("commonmark", {"html": False, "breaks": True, "linkify": False,
                                               "typographer": False, "highlight": _fence})
                md.enable(["table", "strikethrough"])
                md.disable("image")  # no request leaves the page because a model wrote ![](http://...)
                md.validateLink = _safe_link
                md.core.ruler.push("course_agent_styles", _style_tokens)
                _markdown = md
    return _markdown


def markdown_html(text: str) -> str:
    """Markdown as safe HTML: no raw HTML, no scripts, no event handlers, only http/https/mailto links."""
    return markdown_renderer().render(text)


# code highlighting
@lru_cache(maxsize=64)
def _lexer_by_name(name: str) -> Any:
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound
    try:
        return get_lexer_by_name(name, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None


# File extensions a reviewer meets, by lexer name. Pygments' own look-up by file name tries every
# lexer's patterns (about half a second the first time), so a small table is used instead.
EXTENSIONS = {
    ".py": "python", ".pyi": "python", ".json": "json", ".md": "markdown", ".toml": "toml", ".yaml": "yaml",
    ".yml": "yaml", ".cfg": "ini", ".ini": "ini", ".sh": "bash", ".js": "javascript", ".mjs": "javascript",
    ".ts": "typescript", ".tsx": "tsx", ".jsx": "jsx", ".html": "html", ".css": "css", ".sql": "sql", ".go": "go",
    ".rs": "rust", ".java": "java", ".kt": "kotlin", ".c": "c", ".h": "c", ".cpp": "cpp", ".hpp": "cpp",
    ".cs": "csharp", ".rb": "ruby", ".php": "php", ".diff": "diff", ".patch": "diff", ".xml": "xml",
    ".dockerfile": "docker", ".rst": "rst",
}


@lru_cache(maxsize=512)
def _style_of(token_type: Any) -> str:
    while token_type is not None:
        style = _TOKEN_STYLES.get(str(token_type).removeprefix("Token.").removeprefix("Literal."))
        if style is not None:
            return style
        token_type = token_type.parent
    return ""


def lexer_for(text: str, filename: str | None = None, lexer_name: str | None = None) -> Any:
    """A Pygments lexer for a text: by name, by file name, or for a diff or JSON; None when unsure."""
    if lexer_name:
        return _lexer_by_name(lexer_name.lower())
    if filename:
        dot = filename.rfind(".")
        name = EXTENSIONS.get(filename[dot:].lower()) if dot > filename.rfind("/") else None
        return _lexer_by_name(name) if name else None
    if text.startswith(("diff --git", "--- ", "@@ ")) or "\ndiff --git " in text or "\n@@ " in text:
        return _lexer_by_name("diff")
    stripped = text.lstrip()
    if stripped[:1] in ("{", "[") and stripped.rstrip()[-1:] in ("}", "]"):
        return _lexer_by_name("json")
    return None


def highlight(text: str, filename: str | None = None, lexer_name: str | None = None) -> str:
    """`text` as escaped HTML, coloured when a lexer fits and the text is not too long."""
    lexer = lexer_for(text, filename, lexer_name) if len(text) <= HIGHLIGHT_LIMIT else None
    if lexer is None:
        return esc(text)
    out: list[str] = []
    run_style, run = "", []
    for token_type, value in lexer.get_tokens(text):
        style = _style_of(token_type)
        if style != run_style and run:
            chunk = esc("".join(run))
            out.append(f"<span style='{run_style}'>{chunk}</span>" if run_style else chunk)
            run = []
        run_style = style
        run.append(value)
    if run:
        chunk = esc("".join(run))
        out.append(f"<span style='{run_style}'>{chunk}</span>" if run_style else chunk)
    return "".join(out)


def code_html(text: str, filename: str | None = None, lexer_name: str | None = None, style: str = "") -> str:
    """A highlighted code block."""
    return f"<pre style='{PRE_STYLE}{';' + style if style else ''}'>{highlight(text, filename, lexer_name)}</pre>"
