"""MkDocs hooks: the pages made from the code, at every build, so none can go stale.

- ``reference.md``: the rule language, from the schema (``cassino.language.reference``);
- ``variants/*.md``: each bundled variant's rulebook, as ``cassino rules NAME --format markdown``
  prints it, and its rule file (whose comments cite the sources and say which readings it chose);
- ``cli.md``: every command's ``--help``, from the parsers ``cassino.apps.cli.build_parser`` makes;
- ``api.md``: the Python API's names with their signatures and docstrings;
- ``changelog.md``: ``CHANGELOG.md`` from the top of the repository.

The pages exist only in the build (``File.generated``); nothing is written into ``docs/``. The pictures of
"Casino in five minutes" are files of ``docs/img/``, drawn by ``pictures.py`` (a test keeps them current).
"""

from __future__ import annotations

import argparse
import inspect
import os
import re
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files


def _variant_names() -> list[str]:
    from cassino.language.catalogue import bundled_names

    return bundled_names()


def variant_title(name: str) -> str:
    """A variant as its rulebook names it ("South African Casino"), not by its file's name."""
    from cassino.language.rulebook import rulebook
    from cassino.language.variants import load

    return rulebook(load(name).rules).title


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Every bundled variant gets its entry under "Variants" in the navigation, by its title."""
    for i, entry in enumerate(config.nav or []):
        if isinstance(entry, dict) and entry.get("Variants") == "variants/index.md":
            titled = sorted((variant_title(n), n) for n in _variant_names())
            config.nav[i] = {"Variants": [{"All the variants": "variants/index.md"}]
                             + [{t: f"variants/{n}.md"} for t, n in titled]}
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    from cassino.language.reference import reference_markdown

    pages = {"reference.md": reference_markdown(), "cli.md": cli_markdown(), "api.md": api_markdown(),
             "variants/index.md": variants_index()}
    for name in _variant_names():
        pages[f"variants/{name}.md"] = variant_page(name)
    changelog = Path(config.config_file_path).parent / "CHANGELOG.md"
    pages["changelog.md"] = changelog.read_text(encoding="utf-8").replace("](docs/", "](")   # (links into docs/)
    # (The pictures, docs/img/*.svg, are files of the project: a reader of the page in a clone or on a code host
    # sees them too; tests/test_site_nav.py checks that they are what pictures.py draws from the engine.)
    for uri, text in pages.items():
        files.append(File.generated(config, uri, content=text))
    return files


# ------------------------------------------------------------------ the variants

def variants_index() -> str:
    from cassino.language.catalogue import describe, example_names

    out = ["# The variants", "",
           "Each bundled variant's complete rulebook, written from its settings alone (the same text as "
           "`cassino rules NAME`, and as the `rules` command in a game), with worked examples checked by "
           "playing them, followed by its rule file: its comments cite, line by line, the passage of the rule text "
           "each setting follows, and where a text is ambiguous, which reading the file chose. "
           "[Sources and families](../sources.md) describes the rule texts and the families of games; "
           "[the rule examples](../rule-examples.md) lists every worked example of the texts with its test.", "",
           "| variant | name in commands | what it is |", "| --- | --- | --- |"]
    for title, name in sorted((variant_title(n), n) for n in _variant_names()):
        out.append(f"| [{title}]({name}.md) | `{name}` | {describe(name)} |")
    out += ["", "## House-rule examples", "",
            "Installed with the package, so any command takes them by name (`cassino play fifty`); "
            "each extends a bundled variant in a few lines:", ""]
    out += [f"- `{name}`: {describe(name)}" for name in example_names()]
    return "\n".join(out) + "\n"


def variant_page(name: str) -> str:
    from cassino.apps.authors.rulebooks import full_rulebook
    from cassino.language.render import render
    from cassino.paths import VARIANTS_DIR

    book = render(full_rulebook(name, with_worked_examples=True, marked=True), "markdown")
    source = (VARIANTS_DIR / f"{name}.yaml").read_text(encoding="utf-8")
    return (book.rstrip("\n") + "\n\n## The rule file\n\n"
            f"`cassino rules {name} --format markdown` prints the rulebook above; the settings come from "
            f"`variants/{name}.yaml` (`cassino explain {name}` says each in words):\n\n"
            "```yaml\n" + source.rstrip("\n") + "\n```\n")


# ------------------------------------------------------------------ the command line

def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:   # argparse keeps its sub-parsers here; there is no public accessor
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def cli_markdown() -> str:
    from cassino.apps.cli import build_parser

    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"    # the same line width on every machine
    try:
        parser = build_parser()
        out = ["# The command line", "",
               "Every command of `cassino`, with its options, as `cassino COMMAND --help` prints them "
               "(this page is made from the same argument parsers). Bad input on the command line is an error "
               "that says what and where, with exit status 2; with `--format json`, as one JSON document on stdout "
               "([output formats and errors](authors.md#output-formats-and-errors)).", "",
               "```text", parser.format_help().rstrip("\n"), "```", ""]
        for name, sub in _subcommands(parser).items():   # each help starts with the command's summary
            out += [f"## `cassino {name}`", "", "```text", sub.format_help().rstrip("\n"), "```", ""]
    finally:
        if saved is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = saved
    return "\n".join(out)


# ------------------------------------------------------------------ the Python API

def _signature(obj: Any) -> str:
    try:
        return str(inspect.signature(obj))
    except (TypeError, ValueError):
        return "(...)"


#: reST roles in docstrings (:meth:`Engine.play`, :func:`~cassino.load_rules`): shown as code, not literally.
_ROLE = re.compile(r":(?:py:)?(?:meth|func|class|attr|mod|data|exc|obj|const):`~?([^`]+)`")


def _doc(obj: Any) -> str:
    """A docstring for the page: each example (``>>>`` lines and their output, up to a blank line)
    a fenced code block shown as written, reST's ``::`` before one a colon, "<" escaped in the prose."""
    lines = _ROLE.sub(r"`\1`", inspect.getdoc(obj) or "").replace("::\n", ":\n").split("\n")
    out: list[str] = []
    k = 0
    while k < len(lines):
        if lines[k].lstrip().startswith(">>>"):
            block = []
            while k < len(lines) and lines[k].strip():
                block.append(lines[k])
                k += 1
            margin = min(len(line) - len(line.lstrip()) for line in block)
            out += ["```python", *(line[margin:] for line in block), "```"]
            continue
        out.append(lines[k].replace("<", "&lt;"))
        k += 1
    return "\n".join(out)


#: Classes a user meets without importing them by name, documented beside the exports: the hand
#: state ``Engine.start``, ``Engine.play`` and ``Game.hand`` give (its card sets are bit masks).
API_EXTRA = {"HandState": "cassino.engine.state"}


def _class_lines(name: str, obj: type) -> list[str]:
    kind = "exception" if issubclass(obj, BaseException) else "class"
    out = [f"## `{name}` ({kind})", "", f"`{_public_module(obj.__module__)}.{obj.__qualname__}`", "", _doc(obj), ""]
    if kind == "exception":
        return out
    for attr, member in sorted(vars(obj).items()):
        if attr.startswith("_"):
            continue
        func = member.__func__ if isinstance(member, (staticmethod, classmethod)) else member
        if isinstance(member, property):
            out += [f"### `{name}.{attr}` (property)", "", _doc(member), ""]
        elif callable(func):
            out += [f"### `{name}.{attr}{_signature(func)}`", "", _doc(func), ""]
    return out


def api_names() -> dict[str, Any]:
    """Every name the API page documents: ``import cassino``'s exports and ``API_EXTRA``. Where the engine
    is compiled (mypyc drops docstrings and makes properties plain descriptors), from the same package's
    Python source, loaded beside it (``native.pure_copy``): the page documents the code as written."""
    import importlib

    from cassino import native

    if native.compiled():
        package = native.pure_copy()

        def module_of(name: str) -> Any:
            return native.pure_copy(name.removeprefix("cassino."))
    else:
        import cassino as package

        module_of = importlib.import_module
    names: dict[str, Any] = {n: getattr(package, n) for n in package.__all__ if not n.startswith("_")}
    for name, module in API_EXTRA.items():
        names[name] = getattr(module_of(module), name)
    return names


def _public_module(name: str) -> str:
    """A module's name as a user imports it (``cassino.engine.core``, not the source copy's name)."""
    from cassino.native import PURE_NAME

    return "cassino" + name[len(PURE_NAME):] if name.startswith(PURE_NAME) else name


def api_markdown() -> str:
    import cassino

    out = ["# The Python API", "",
           "The names `import cassino` gives, with their docstrings (generated from the code; "
           "[the engine from Python](engine.md) shows them at work), and the hand state the engine's "
           "methods take and give (`HandState`). `cassino --version` says whether the "
           "engine is compiled; the two play the same games.", "",
           "The examples of a class's methods continue its own example (`engine` and `state` are the "
           "`Engine` example's, `game` the `Game` example's).", ""]
    for name, obj in sorted(api_names().items()):
        if inspect.isclass(obj):
            out += _class_lines(name, obj)
        elif callable(obj):
            out += [f"## `{name}{_signature(obj)}`", "", f"`{_public_module(obj.__module__)}.{name}`", "", _doc(obj), ""]
        else:
            out += [f"## `{name}`", "", f"`{obj!r}`", ""]
    out += ["## `__version__`", "", f"`{cassino.__version__!r}`", ""]
    return "\n".join(out)
