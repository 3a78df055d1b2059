"""The rule language: YAML text -> checked, frozen :class:`~cassino.language.rules.Rules`.

``yamlsource`` (safe YAML with positions) -> ``resolve`` (``extends``) -> ``schema``
and ``semantics`` (checks, errors as FILE:LINE:COL) -> ``rules`` (frozen settings);
``variants`` runs that pipeline. ``cards`` and ``selectors`` are the vocabulary rule
files use to name cards; ``explain`` puts settings into words. Nothing here imports
the engine.
"""
