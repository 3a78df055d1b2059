"""`extends`: a house rule starts from another variant and changes a few settings.

The parent is a bundled variant's name or a path relative to the extending
file. Mappings merge (the child's keys win), lists and single values replace.
Each merged value remembers which file and place it came from, so an error in
the merged variant points into the file that wrote the offending line.

A rule file may come from anyone (a pull request checked in CI, a file shared by a
friend), and an error quotes the lines of the file it is in. So a path in `extends`
is confined (:class:`Confinement`): it must lead, symbolic links followed, to a
``.yaml`` or ``.yml`` file inside the folder tree of the file that was asked for or
of the current folder, or to a shipped variant or example. Anything else is refused
at the `extends` line, and nothing of the named file is opened, so nothing of it is
quoted (``extends: /proc/self/environ`` cannot publish a CI runner's secrets).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from ..errors import Diagnostic, RuleFileError
from ..files import NAME_MAX, is_file, real_path, too_long, unreadable
from .yamlsource import Document, PathT, load_yaml


@dataclass(frozen=True)
class Resolved:
    """A variant with its `extends` chain merged."""

    data: dict[str, Any]
    origin: Mapping[PathT, tuple[Document, PathT]]
    documents: tuple[Document, ...]   # the chain, the file asked for first
    shipped: tuple[bool, ...] = ()    # for each document: a bundled variant or example (valid as shipped)
    paths: tuple[Path, ...] = ()      # for each document: the real path it was read from, as checked
    #: Whether the document at an index past the first, an author's file the one asked for extends, is valid on its
    #: own (asked only where a problem is found in it; None: not known, taken as not): a problem found there is the
    #: extending file's making, pointed at it as for a shipped file (a validation audit's CI annotated a parent
    #: that validates clean, and never named the house rule whose `deck.suits` broke the parent's selector).
    valid_alone: Callable[[int], bool] | None = None

    def diagnostic(self, path: PathT, message: str, *, key: bool = False, hint: str | None = None,
                   severity: str = "error", or_at: tuple[PathT, ...] = ()) -> Diagnostic:
        """A problem at ``path`` of the merged variant, pointed at the file that wrote it. ``or_at``: other
        settings the problem is as much about; the first of ``path`` and these that an author's own file
        writes is pointed at (a house rule that sets `game.goal` is shown its `goal`, not `capture`)."""
        path = tuple(path)
        alone = severity == "error"   # (a warning of a parent valid on its own may be the parent's own)
        for other in (path, *or_at):
            written = self.origin.get(tuple(other))
            if written is not None and self._authors_place(written[0], tuple(other), alone) is None:
                path = tuple(other)
                break
        probe = path
        while probe and probe not in self.origin:
            probe = probe[:-1]
        doc, doc_path = self.origin.get(probe, (self.documents[0], ()))
        if probe != path:
            doc_path = doc_path + path[len(probe):]
        own = self._authors_place(doc, path, alone)
        if own is not None:   # a shipped file is valid as shipped: what the author's file changed broke it
            own_doc, own_path, own_key = own
            line, _ = doc.position(doc_path, key=key and probe == path)
            from .schema import dotted as written   # (as every other message writes a setting: `a.b[0]`)

            dotted = written(path)
            where = doc.path.split(" (")[0]
            why = "which this file's settings make invalid" if severity == "error" else "with this file's settings"
            return own_doc.diagnostic(own_path, f"{message} (in `{dotted}`, inherited from {where}, line {line}, "
                                                f"{why})", key=own_key, hint=hint, severity=severity)
        return doc.diagnostic(doc_path, message, key=key and probe == path, hint=hint, severity=severity)

    def _authors_place(self, doc: Document, path: PathT, alone: bool = True) -> tuple[Document, PathT, bool] | None:
        """Where an author's file should be pointed at for a problem found in a shipped file it extends:
        the author's setting nearest ``path`` (the first with the longest shared start: `deal.table_cards`
        for a problem at `deal.hand_size`), else the one section the author's files change, else their
        `extends`.
        None when the problem lies in an author's file, or when no author's file is in the chain. ``alone``: an
        author's file past the first that is valid on its own (``valid_alone``) counts as shipped."""
        flags = list(self.shipped or (False,) * len(self.documents))
        for at in range(1, len(flags) if alone and self.valid_alone is not None else 0):
            if not flags[at] and self.valid_alone(at):   # type: ignore[misc]
                flags[at:] = [True] * (len(flags) - at)   # (it, and what it extends, as valid as written)
                break
        shipped = {id(d) for d, f in zip(self.documents, flags) if f}
        own = [d for d, f in zip(self.documents, flags) if not f]
        if id(doc) not in shipped or not own:
            return None
        best: tuple[int, Document, PathT] | None = None
        sections: dict[str, Document] = {}
        for d in own:
            for setting in settings_of(d.data):
                shared = next((i for i, (a, b) in enumerate(zip(setting, path)) if a != b), min(len(setting), len(path)))
                if shared and (best is None or shared > best[0]):
                    best = (shared, d, setting)
                sections.setdefault(str(setting[0]), d)
        if best is not None:
            return best[1], best[2], False   # (at the setting's value, as a problem of its own would be)
        if len(sections) == 1:
            name, d = next(iter(sections.items()))
            return d, (name,), True
        return own[-1], ("extends",), False


#: Settings that describe a file rather than play: never the cause of a problem in another file.
_META = ("name", "description", "source", "extends", "readings")


def settings_of(data: Any, path: PathT = ()) -> list[PathT]:
    """Every leaf setting a file gives, as paths (lists are one setting: they replace, never merge)."""
    if isinstance(data, dict):
        out: list[PathT] = []
        for k, v in data.items():
            if path or k not in _META:
                out += settings_of(v, path + (k,))
        return out
    return [path] if path else []


def merge(parent: Any, child: Any) -> Any:
    """Mappings merge recursively (child keys win); lists and scalars replace."""
    if isinstance(parent, dict) and isinstance(child, dict):
        out = dict(parent)
        for key, value in child.items():
            out[key] = merge(parent[key], value) if key in parent else value
        return out
    return child


def _origins(doc: Document, data: Any, path: PathT, into: dict[PathT, tuple[Document, PathT]]) -> None:
    into[path] = (doc, path)
    if isinstance(data, dict):
        for key, value in data.items():
            if path == () and key == "extends":
                continue
            _origins(doc, value, path + (key,), into)
    elif isinstance(data, list):
        for i, value in enumerate(data):
            _origins(doc, value, path + (i,), into)


def _bundled(bundled_dir: Path | None) -> Path:
    if bundled_dir is not None:
        return bundled_dir
    from ..paths import VARIANTS_DIR

    return VARIANTS_DIR


def _load_mapping(path: Path, display: str) -> Document:
    """``path`` (a real path that was checked: read without following any link) as a rule file's mapping."""
    doc = load_yaml(path, display=display, unlinked=True)
    if doc.data is None:
        raise RuleFileError([doc.diagnostic((), "the file is empty: a variant needs at least `name` and "
                                                "`extends`, or every section",
                                            hint="start with `name: my-rules` and `extends: standard`")])
    if not isinstance(doc.data, dict):
        shown = repr(doc.data)
        kind = "a list" if isinstance(doc.data, list) else \
            f"a single value ({shown if len(shown) <= 40 else shown[:30] + '...'})"
        raise RuleFileError([doc.diagnostic((), f"a rule file is a mapping of settings; found {kind}",
                                            hint="write `name: ...` and the sections as `key: value` lines")])
    return doc


class ExtendsError(RuleFileError):
    """`extends` names no variant that can be read. ``documents``: the files of the chain that were
    read (the one whose `extends` fails last), so their own errors can be reported in the same run."""

    def __init__(self, diagnostics: list[Diagnostic], documents: tuple[Document, ...]) -> None:
        super().__init__(diagnostics)
        self.documents = documents


def names_a_path(ref: str) -> bool:
    """`extends: ref` (or a scenario's `variant: ref`) names a file by its path, not a shipped variant by name."""
    return "/" in ref or "\\" in ref or ref.lower().endswith((".yaml", ".yml"))


RULE_FILE_SUFFIXES = (".yaml", ".yml")
#: Why a file named in `extends` whose name has another ending is refused.
_NOT_YAML = "a rule file's name ends in .yaml or .yml"


def _folder_of(path: str | Path) -> Path:
    """The real folder a file was named in (the link's folder for a symbolic link, not its target's)."""
    return real_path(Path(os.path.abspath(path)).parent)


def _current_folder() -> Path | None:
    try:
        return real_path(Path.cwd())
    except OSError:      # the current folder was removed
        return None


@dataclass(frozen=True)
class Confinement:
    """The folders a rule file's `extends` (and a scenario file's `variant:`) may name files in.

    ``roots``: the folder of the file that was asked for and the current folder (a repository's
    root, where `cassino validate rules/*.yaml` runs), symbolic links followed. The shipped variants
    and examples are always allowed, by name or by path. A file outside them is refused before it is
    opened: its words never reach an error message.
    """

    roots: tuple[Path, ...]

    @classmethod
    def around(cls, path: str | Path) -> "Confinement":
        """The confinement of a chain that starts at ``path``: its folder and the current folder."""
        return cls.within(_folder_of(path))

    @classmethod
    def within(cls, folder: Path, resolved: bool = False) -> "Confinement":
        """``folder``'s tree and the current folder's (``resolved``: ``folder`` is a real path already, as
        found, not resolved again)."""
        roots = [folder if resolved else real_path(folder)]
        here = _current_folder()
        if here is not None and here not in roots:
            roots.append(here)
        return cls(tuple(roots))

    def refusal(self, target: Path, real: Path | None = None) -> str | None:
        """Why ``target`` (a path a rule file names) may not be read; None when it may. ``real``: its real path
        as resolved once by the caller, who then reads exactly that path (following no link: a path resolved
        again could lead elsewhere by then); by default resolved here."""
        from ..paths import EXAMPLES_DIR, VARIANTS_DIR

        real = real_path(target) if real is None else real
        shipped = (real_path(VARIANTS_DIR), real_path(EXAMPLES_DIR))
        if not any(real.is_relative_to(root) for root in self.roots + shipped):
            return "it lies outside the folders a rule file may extend from"   # (nothing said of the file)
        if real.suffix.lower() not in RULE_FILE_SUFFIXES:
            linked = real.name != Path(target).name
            return "it is a symbolic link to a file whose name does not end in .yaml or .yml" if linked else _NOT_YAML
        return None

    def hint(self, key: str = "extends") -> str:
        """How to name a parent that may be read; ``key`` is the naming setting (a scenario's ``variant``)."""
        folders = " or ".join(str(root) for root in self.roots)
        verb = "extend" if key == "extends" else "name"
        return (f"{verb} a bundled variant or a house-rule example by name (`{key}: standard`; "
                f"cassino list names them), or a .yaml file inside {folders} (symbolic links followed: run "
                f"cassino from a folder that holds both files to reach a file beside this one's folder); "
                "see \"Security and limits\" in the documentation (docs/security.md in the source)")


def _walk(path: str | Path) -> tuple[Path, Path | None]:
    """``path`` followed one part at a time as the system follows it (``..`` the folder above the one reached,
    not a part struck out of the text), stopping at the first symbolic link: where it leads when no link is on
    it, and the real folder above the first link (None where there is none)."""
    if Path(path).is_absolute():
        here = Path(Path(path).anchor)
    else:
        try:
            here = Path(os.getcwd())   # (the kernel's: a real path)
        except OSError:   # (the current folder was removed: a relative path leads nowhere, and is not read)
            return Path(os.sep), None
    for part in Path(path).parts:
        if part == os.sep or (Path(part).anchor and Path(part).anchor == part):
            here = Path(part)
        elif part == "..":
            here = here.parent
        elif part != ".":
            step = here / part
            if os.path.islink(step):
                return step, here
            here = step
    return here, None


def named_real(path: str | Path) -> tuple[Path, tuple[str, Confinement] | None]:
    """The real path of a file named on the command line (a rule file, a scenario file), resolved once,
    and why it may not be read (with the confinement it broke), or None. Such a file is read whatever it is
    called, but where a symbolic link leads to it (the file itself, or a folder on its path) the link obeys
    the rule `extends` obeys, with the folder above the first link as the file's folder: a link planted in a
    repository (`rules/evil.yaml -> /proc/self/environ`, `rules/shared -> ../../elsewhere`) cannot lead a
    check run there out of it. The caller reads exactly the real path returned, following no link (a path
    resolved again could lead elsewhere by then: another process may swap a folder for a link)."""
    real = real_path(path)
    walked, above = _walk(path)
    if above is None:
        if real != walked:   # (no link on it now, yet it led elsewhere when resolved: it changed meanwhile)
            confined = Confinement.within(walked.parent, resolved=True)
            return real, ("a symbolic link on its path changed while it was being checked", confined)
        return real, None
    confined = Confinement.within(above, resolved=True)
    refused = confined.refusal(Path(path), real)
    return real, None if refused is None else (refused, confined)


def unreadable_error(path: str | Path, display: str) -> RuleFileError | None:
    """What ``load_yaml`` says of a file it cannot read (missing, a folder, a device, a loop of links), told
    without opening it; None where it is a regular file."""
    what = "a rule or scenario file"
    if not str(path).strip():   # (a re-attack's `check ''` read ": cannot read ...: no such file")
        return RuleFileError([Diagnostic("(an empty name)", 0, 0, f"names no file: name {what} to read")])
    why = unreadable(path)
    if why is None:
        return None
    if why.startswith("it is "):
        kind = why[len("it is "):]
        reason = f"is a folder, not {what}" if kind == "a folder" else f"is {kind}, not {what}; name a regular file"
    else:
        reason = f"cannot read {what}: {why}"
    return RuleFileError([Diagnostic(display, 0, 0, reason)])


def load_named(path: str | Path, *, display: str | None = None) -> Document:
    """A YAML file named on the command line (a scenario file), read as ``load_yaml`` reads it once
    ``named_real`` lets it be, from the real path it checked, following no link on the way (a link that
    takes a folder's place since is refused, not followed)."""
    return named_document(path, display=display)[0]


def named_document(path: str | Path, *, display: str | None = None) -> tuple[Document, Path]:
    """``load_named``'s document and the real path it was read from (its folder is the one the file's own
    references are relative to: resolved once, not again)."""
    name = display or str(path)
    cannot = unreadable_error(path, name)
    if cannot is not None:
        raise cannot
    real, refused = named_real(path)
    if refused is not None:
        raise RuleFileError([Diagnostic(name, 0, 0, f"is a symbolic link to a file that may not be read here: "
                                                    f"{refused[0]}", hint=refused[1].hint("variant"))])
    return load_yaml(real, display=name, unlinked=True), real


def _parent_path(ref: str, child: Path, bundled_dir: Path) -> Path | None:
    """The file `extends: ref` names: a path relative to the extending file, or by name a bundled
    variant, else a shipped house-rule example (``fifty``, as `cassino list` offers them)."""
    if names_a_path(ref):
        return real_path(child.parent / ref)
    candidate = bundled_dir / f"{ref}.yaml"
    if is_file(candidate):
        return candidate
    from .catalogue import find_example

    return find_example(ref)


def _refusal_hint(ref: str, refused: str, confined: Confinement) -> str:
    """The hint of an `extends` the confinement refuses: for a file whose name has another ending, the name to
    give it; else the folders and names that may be extended."""
    if refused != _NOT_YAML or not Path(ref).suffix:
        return confined.hint()
    renamed = ref[:-len(Path(ref).suffix)] + ".yaml"
    return (f"rename the file to {Path(renamed).name} and write `extends: {renamed}`"
            + ("" if "/" in ref or "\\" in ref else
               "; a name without an ending is a bundled variant or a house-rule example (cassino list)"))


def as_given(shown: str) -> str:
    """A document's path as a person reads it in a chain: relative to the current folder when it lies
    within (a parent's path is absolute once resolved), else as it is; a bundled name as it is."""
    if not os.path.isabs(shown):
        return shown
    try:
        relative = os.path.relpath(shown)
    except ValueError:   # (another drive)
        return shown
    return shown if relative.startswith("..") else relative


def resolve_file(path: str | Path, *, bundled_dir: Path | None = None, display: str | None = None,
                 confinement: Confinement | None = None) -> Resolved:
    """Load ``path`` and every file it extends; merge them child over parent. A path in `extends`
    must stay inside ``confinement`` (by default the real folder of ``path``, as resolved once, and the current
    folder)."""
    bundled = _bundled(bundled_dir)
    cannot = unreadable_error(path, display or str(path))   # (a missing file, a folder, a device: by its name)
    if cannot is not None:
        raise cannot
    current, linked = named_real(path)   # (each file read from the real path that was checked, following no link)
    # (The chain's folders: the real folder of the file as resolved once, not resolved again: a folder on its
    # path swapped for a link meanwhile must not widen them. Within the folders the file was allowed from.)
    confined = confinement or Confinement.within(current.parent, resolved=True)
    if linked is not None:
        # The file asked for is read whatever it is called, but a link planted in a repository must not
        # lead a check run there out of it: a link obeys the rule `extends` obeys.
        raise RuleFileError([Diagnostic(display or str(path), 0, 0,
                                        f"is a symbolic link to a file a rule file may not name: {linked[0]}",
                                        hint=linked[1].hint())])
    chain: list[Document] = []
    seen: list[Path] = []
    name = display or str(path)
    while True:
        real = current
        if real in seen:
            names = " -> ".join(as_given(d.path) for d in chain) + f" -> {as_given(name)}"
            child = chain[-1]
            raise RuleFileError([child.diagnostic(("extends",), f"`extends` makes a cycle: {names}",
                                                  hint="a variant cannot extend itself, directly or through others")])
        seen.append(real)
        try:
            doc = _load_mapping(current, name)
        except RuleFileError:
            raise
        chain.append(doc)
        ref = doc.data.get("extends")
        if ref is None:
            break
        if not isinstance(ref, str) or not ref:
            raise ExtendsError([doc.diagnostic(("extends",), "`extends` takes a bundled variant's name or a file path")],
                               tuple(chain))
        if too_long(ref):   # (said as the command line says it: the name once, shortened; not "cannot find" it)
            raise ExtendsError([doc.diagnostic(("extends",), f"`extends` names `{ref[:60]}...`: the name is too long "
                                                             f"({len(ref)} characters; a file or folder name is at "
                                                             f"most {NAME_MAX})",
                                               hint="name the parent by a shorter name: a bundled variant "
                                                    "(cassino list) or a .yaml file beside this one")], tuple(chain))
        parent = _parent_path(ref, current, bundled)   # (a path: its real path, resolved once, read as it is)
        refused = confined.refusal(current.parent / ref, parent) if parent is not None and names_a_path(ref) \
            else None
        if refused is not None:   # said before the file is looked at: nothing of it is opened or quoted
            raise ExtendsError([doc.diagnostic(("extends",), f"`extends` may not name `{ref}`: {refused}",
                                               hint=_refusal_hint(ref, refused, confined))], tuple(chain))
        if parent is not None and os.path.lexists(parent) and unreadable(parent):
            raise ExtendsError([doc.diagnostic(("extends",), f"cannot read the variant `{ref}` that this file "
                                                             f"extends: {unreadable(parent)}")], tuple(chain))
        if parent is None and Path(ref).suffix and is_file(real_path(current).parent / ref):
            # (`extends: notyaml.txt`, a file beside this one: not a variant's name but a file whose name does not
            # end in .yaml, said as `extends: ./notyaml.txt` is, rather than "cannot find the variant")
            refused = confined.refusal(real_path(current).parent / ref)
            if refused is not None:
                raise ExtendsError([doc.diagnostic(("extends",), f"`extends` may not name `{ref}`: {refused}",
                                                   hint=_refusal_hint(ref, refused, confined))], tuple(chain))
        if parent is None or not is_file(parent):
            from .catalogue import example_names, nearest_name

            names = sorted(p.stem for p in bundled.glob("*.yaml"))
            near = nearest_name(ref, names + example_names())
            hint = (f"did you mean `{near}`? " if near else "") + f"bundled variants: {', '.join(names)}"
            if example_names():
                hint += "; house-rule examples: cassino list"
            beside = real_path(current).parent / f"{ref}.yaml"
            if parent is None and not names_a_path(ref) and is_file(beside):
                # (A file of the author's beside this one, named without `.yaml`: it, not a shipped name.)
                hint = (f"did you mean `extends: {ref}.yaml`, the file beside this one? A file is named with its "
                        f"`.yaml`; a name without it is a bundled variant or example (cassino list)")
            if parent is not None:
                hint = (f"no file {parent}; a path in `extends` is relative to the folder of {name}, "
                        f"{real_path(current).parent}")
                stem = Path(ref).stem
                if "://" in ref:   # (a validation audit's `extends: https://...` was told of a file by that path)
                    hint = ("a rule file is never fetched from the network: save the file beside this one and "
                            "name it by its path, or extend a bundled variant by name (cassino list)")
                elif Path(ref).name == ref and Path(ref).suffix in (".yaml", ".yml") and stem in names:
                    hint = f"did you mean `extends: {stem}`, the bundled variant? A bundled variant is named without `.yaml`"
            raise ExtendsError([doc.diagnostic(("extends",), f"cannot find the variant `{ref}` that this file extends",
                                               hint=hint)], tuple(chain))
        current = parent if names_a_path(ref) else real_path(parent)   # (a shipped file: where it is installed)
        # (A parent file is named as its child is: relative to the current folder where it lies within it when
        # the child was named relative, as the annotations name it too; an audit found its errors' `file` absolute
        # in the text and JSON and relative in the GitHub and SARIF output of the same run.)
        if names_a_path(ref):
            name = str(parent) if os.path.isabs(name) else as_given(str(parent))
        else:
            name = f"{ref} ({parent})"
    data: Any = {}
    origin: dict[PathT, tuple[Document, PathT]] = {}
    for doc in reversed(chain):
        data = merge(data, {k: v for k, v in doc.data.items() if k != "extends"})
        _origins(doc, doc.data, (), origin)
    return Resolved(data, origin, tuple(chain), tuple(_is_shipped(real) for real in seen), tuple(seen))


def _is_shipped(real: Path) -> bool:
    from ..paths import EXAMPLES_DIR, VARIANTS_DIR

    return any(real.is_relative_to(real_path(root)) for root in (VARIANTS_DIR, EXAMPLES_DIR))


def resolve_name(name_or_path: str, *, bundled_dir: Path | None = None,
                 confinement: Confinement | None = None) -> Resolved:
    """A bundled variant by name (``standard``) or a rule file by path. A name finds a bundled variant, then a
    shipped house-rule example (``fifty``), and only then a file of that name in the current folder (named on
    the command line), so that a file in the folder never stands in for a shipped name. ``confinement``:
    ``resolve_file``'s."""
    from .catalogue import example_names, find_example, nearest_name

    bundled = _bundled(bundled_dir)
    ref = str(name_or_path)
    plain = not names_a_path(ref)
    if plain:
        candidate = bundled / f"{ref}.yaml"
        if is_file(candidate):
            return resolve_file(candidate, bundled_dir=bundled, display=f"{ref} ({candidate})")
    if plain or not is_file(ref):
        # A shipped house-rule example, by name (`fifty`) or as written in the clone (`examples/fifty.yaml`).
        example = find_example(ref)
        if example is not None:
            return resolve_file(example, bundled_dir=bundled, display=f"{ref} ({example})")
    if plain and not is_file(ref):
        names = sorted(p.stem for p in bundled.glob("*.yaml"))
        near = nearest_name(ref, names + example_names())
        hint = (f"did you mean `{near}`? " if near else "") + f"bundled variants: {', '.join(names)}"
        for ending in (".yaml", ".yml"):   # (a rule file of this folder, named without its ending)
            if is_file(ref + ending):
                hint = f"did you mean the file {ref}{ending}? (a file is named with its ending)"
                break
        if example_names() and not hint.startswith("did you mean the file"):
            hint += "; house-rule examples: cassino list"
        raise RuleFileError([Diagnostic(ref, 0, 0, f"no bundled variant or file named `{ref}`", hint)])
    stem, ending = os.path.splitext(ref)
    if ending.lower() in (".yaml", ".yml") and not os.path.lexists(ref) and not os.path.dirname(ref) \
            and (is_file(bundled / f"{stem}.yaml") or stem in example_names()):
        # (`cassino play standard.yaml`: a bundled variant named as a file of this folder, which has none)
        kind = "bundled variant" if is_file(bundled / f"{stem}.yaml") else "house-rule example"
        raise RuleFileError([Diagnostic(ref, 0, 0, "cannot read a rule or scenario file: no such file",
                                        f"`{stem}` is a {kind}: name it without its ending ({stem})")])
    return resolve_file(ref, bundled_dir=bundled, confinement=confinement)
