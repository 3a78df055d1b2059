"""A rulebook as plain text, Markdown or a standalone HTML page.

Plain text is what the terminal and the in-game ``rules`` command show; Markdown
suits a repository's README; HTML is one self-contained page (no scripts, no
outside resources) to print or put on a website. A house rule's changes are
marked in each: a tag in text, bold and strike-through in Markdown, ``<ins>``
and ``<del>`` in HTML. Example lines are never wrapped, one label a line, so
they stay readable and can be read back by tests.
"""

from __future__ import annotations

import html
import textwrap
from typing import Callable

from .rulebook import Clause, Example, Rulebook, Section

FORMATS = ("text", "markdown", "html")
WIDTH = 100


def render(book: Rulebook, fmt: str = "text") -> str:
    if fmt == "markdown":
        return markdown(book)
    if fmt == "html":
        return html_page(book)
    return text(book)


def _body(book: Rulebook, heading: Callable[[int, Section], list[str]],
          clause: Callable[[Clause, str], list[str]], example: Callable[[Example, str], list[str]]) -> list[str]:
    """The sections as lines, each example right after the rule it shows (text and Markdown alike)."""
    parent = _parent(book)
    out: list[str] = []
    for k, s in enumerate(book.sections, 1):
        out += heading(k, s)
        after = _examples_after(s)
        last = _last_of_key(s)
        for n, c in enumerate(s.clauses):
            out += clause(c, parent)
            for ex in after.get(c.key, []) if last[c.key] == n else []:
                out += example(ex, parent)
        for ex in after.get("", []):
            out += example(ex, parent)
        out.append("")
    return out


def _tidy(lines: list[str]) -> str:
    """One blank line at most between blocks, none at the end."""
    tidy: list[str] = []
    for line in lines:
        if line or (tidy and tidy[-1]):
            tidy.append(line)
    while tidy and not tidy[-1]:
        tidy.pop()
    return "\n".join(tidy) + "\n"


def _last_of_key(section: Section) -> dict[str, int]:
    """Each clause key's last clause: its examples follow the last (Finnish Kasino words each card
    worth more from the hand in a clause of its own, all keyed ``deck.card_values``). A removed clause is the
    parent's, not the rule shown: the examples follow the house rule's clause of the key."""
    last = {c.key: n for n, c in enumerate(section.clauses)}
    last.update({c.key: n for n, c in enumerate(section.clauses) if c.status != "removed"})
    return last


def _examples_after(section: Section) -> dict[str, list[Example]]:
    """Examples by the clause they follow; those for no clause of the section go last."""
    keys = {c.key for c in section.clauses}
    out: dict[str, list[Example]] = {}
    for ex in section.examples:
        out.setdefault(ex.key if ex.key in keys else "", []).append(ex)
    return out


# ---------------------------------------------------------------------- text


def _wrap(body: str, first: str, rest: str) -> list[str]:
    return textwrap.wrap(body, WIDTH, initial_indent=first, subsequent_indent=rest,
                         break_on_hyphens=False, break_long_words=False) or [first.rstrip()]


def _text_clause(c: Clause, parent: str) -> list[str]:
    if c.status == "removed":
        return _wrap(f"REMOVED from {parent}: {c.was}", "  * ", "    ")
    if c.status == "changed":
        return _wrap(f"CHANGED: {c.text}", "  * ", "    ") + _wrap(f"({parent} instead: {c.was})", "      ", "      ")
    if c.status == "new":
        return _wrap(f"NEW: {c.text}", "  * ", "    ")
    return _wrap(c.text, "  - ", "    ")


def _example_mark(ex: Example, parent: str) -> str:
    """``Example``, or how a house rule's example stands against its parent's: ``Example (CHANGED from standard's)``."""
    return {"changed": f"Example (CHANGED from {parent}'s)", "new": "Example (NEW)",
            "removed": f"Example REMOVED from {parent}"}.get(ex.status, "Example")


def _text_example(ex: Example, parent: str = "the parent") -> list[str]:
    lines = ["", f"    {_example_mark(ex, parent)}: {ex.title}"]
    lines += [f"      {label}: {value}" for label, value in ex.lines]
    lines += [f"      ({parent} instead: {label}: {value})" if label else f"      ({value})" for label, value in ex.was]
    return lines + [""]


def _parent(book: Rulebook) -> str:
    for note in book.notes:
        if note.startswith("A house rule of "):
            return note[len("A house rule of "):].split(":")[0]
    return "the parent"


def text(book: Rulebook) -> str:
    out = [book.title.upper(), "=" * len(book.title), ""]
    out += _wrap(book.intro, "", "") + [""]
    for note in book.notes:
        out += _wrap(note, "Note: ", "      ") + [""]
    out += _body(book, lambda k, s: [f"{k}. {s.title}", "-" * len(f"{k}. {s.title}")], _text_clause, _text_example)
    return _tidy(out)


# ---------------------------------------------------------------------- markdown


def _md_escape(s: str) -> str:
    return s.replace("*", "\\*").replace("_", "\\_")


def _md_clause(c: Clause, parent: str) -> list[str]:
    if c.status == "removed":
        return [f"- **Removed** ({parent}): ~~{_md_escape(c.was)}~~"]
    if c.status == "changed":
        return [f"- **Changed:** {_md_escape(c.text)}  ", f"  *{parent}:* ~~{_md_escape(c.was)}~~"]
    if c.status == "new":
        return [f"- **New:** {_md_escape(c.text)}"]
    return [f"- {_md_escape(c.text)}"]


def _md_value(label: str, value: str) -> str:
    moves = [m.strip() for m in value.split(" · ")]
    if any(w in value for w in (" capture ", " build ", " trail")) and label not in ("Players", "Points", "Total"):
        # (a move's explanation, "(4♥ is under the top card)", outside its code span: a re-attack read it as the move's)
        def code(m: str) -> str:
            move, sep, why = m.partition(" (")
            return f"`{move}` ({_md_escape(why)}" if sep else f"`{m}`"
        return " · ".join(code(m) if m and m != "none" else m for m in moves)
    return _md_escape(value)


def _md_example(ex: Example, parent: str = "the parent") -> list[str]:
    lines = ["", f"> **{_md_escape(_example_mark(ex, parent))}: {_md_escape(ex.title)}**  "]
    lines += [f"> {_md_escape(label)}: {_md_value(label, value)}  " for label, value in ex.lines]
    lines += [f"> *{_md_escape(parent)} instead:* ~~{_md_escape(label)}: {_md_escape(value)}~~  " if label
              else f"> *({_md_escape(value)})*  " for label, value in ex.was]
    return lines + [""]


def markdown(book: Rulebook) -> str:
    out = [f"# {book.title}", "", _md_escape(book.intro), ""]
    for note in book.notes:
        out += [f"*{_md_escape(note)}*", ""]
    out += _body(book, lambda k, s: [f"## {s.title}", ""], _md_clause, _md_example)
    return _tidy(out)


# ---------------------------------------------------------------------- html

_STYLE = """body{font-family:Georgia,serif;max-width:46em;margin:2em auto;padding:0 1em;line-height:1.45;color:#222}
h1{border-bottom:2px solid #444}h2{margin-top:1.6em;border-bottom:1px solid #bbb}
.example{background:#f6f4ee;border-left:4px solid #a98;padding:.4em 1em;margin:.6em 0 1em}
.example dt{font-weight:bold;float:left;clear:left;margin-right:.5em}.example dd{margin:0 0 .2em 0}
code{font-family:Menlo,Consolas,monospace;background:#eee;padding:0 .2em}
ins{background:#dfd;text-decoration:none}del{background:#fdd;color:#633}.note{font-style:italic}
.example.changed,.example.new{border-left-color:#6a6}.example.removed{border-left-color:#c66;color:#633}
.example .was{color:#633}"""


def _h(s: str) -> str:
    return html.escape(s, quote=True)


def _html_clause(c: Clause, parent: str) -> str:
    if c.status == "removed":
        return f'<li class="removed"><del title="{_h(parent)}">{_h(c.was)}</del></li>'
    if c.status == "changed":
        return (f'<li class="changed"><ins>{_h(c.text)}</ins><br><small>{_h(parent)}: '
                f'<del>{_h(c.was)}</del></small></li>')
    if c.status == "new":
        return f'<li class="new"><ins>{_h(c.text)}</ins></li>'
    return f"<li>{_h(c.text)}</li>"


def _html_example(ex: Example, parent: str = "the parent") -> str:
    rows = "".join(f"<dt>{_h(label)}:</dt><dd>{_h(value)}</dd>" for label, value in ex.lines)
    rows += "".join(f'<dt class="was">{_h(parent)} instead, {_h(label)}:</dt><dd class="was"><s>{_h(value)}</s></dd>'
                    if label else f'<dt class="was"></dt><dd class="was">({_h(value)})</dd>' for label, value in ex.was)
    return (f'<div class="example{" " + ex.status if ex.status else ""}"><p><b>{_h(_example_mark(ex, parent))}: '
            f'{_h(ex.title)}</b></p><dl>{rows}</dl></div>')


def html_page(book: Rulebook) -> str:
    parent = _parent(book)
    body = [f"<h1>{_h(book.title)}</h1>", f"<p>{_h(book.intro)}</p>"]
    body += [f'<p class="note">{_h(n)}</p>' for n in book.notes]
    for s in book.sections:
        body.append(f'<h2 id="{_h(s.key)}">{_h(s.title)}</h2>')
        after = _examples_after(s)
        last = _last_of_key(s)
        items: list[str] = []
        for n, c in enumerate(s.clauses):
            items.append(_html_clause(c, parent))
            for ex in after.get(c.key, []) if last[c.key] == n else []:
                items.append(f'<li class="example-item">{_html_example(ex, parent)}</li>')
        body.append("<ul>" + "\n".join(items) + "</ul>")
        body += [_html_example(ex, parent) for ex in after.get("", [])]
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{_h(book.title)}: rules</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")
