"""Plain option values without pydantic: typer checks every value it hands a command with a
pydantic ``TypeAdapter`` built per parameter, and importing pydantic and building the adapters
costs a one-shot command 70-160 ms (``python -X importtime``) for values that need no checking.

:func:`install` wraps typer's per-parameter coercion so that a value whose answer is already known
(``None``; a ``str`` for a ``str`` option; an ``int`` or a plain decimal string for an ``int``
option without bounds; a ``float`` for a ``float`` option, as defaults are) is returned as typer
would return it, and everything else (paths, bounded numbers, choices, a ``float`` typed on the
command line, any value in doubt) goes to typer's own coercion, built on first use, so its checks
and messages are unchanged. If typer's internals are not the ones this wraps, nothing is changed.
"""

from __future__ import annotations

import re
from typing import Any

_DECIMAL = re.compile(r"-?[0-9]{1,18}")  # what int() and pydantic read alike (no "+", "_", spaces)


class _Plain:
    """A stand-in for typer's ``RuntimeParam``: the plain cases here, the rest delegated."""

    def __init__(self, param: Any, build: Any) -> None:
        self.param, self.build = param, build
        self.full: Any = None  # typer's own, built on first use

    def _known(self, value: Any) -> tuple[bool, Any]:
        info = self.param.type_descriptor
        annotation, meta = info.annotation, info.parameter_info
        if self.param.multiple or self.param.nargs != 1 or getattr(meta, "parser", None) is not None:
            return False, None
        if value is None:
            return True, None
        if annotation is str and type(value) is str:
            return True, value
        bounded = getattr(meta, "min", None) is not None or getattr(meta, "max", None) is not None
        if annotation is int and not bounded:
            if type(value) is int:
                return True, value
            if type(value) is str and _DECIMAL.fullmatch(value):
                return True, int(value)
        if annotation is float and not bounded and type(value) is float:
            return True, value
        return False, None

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        known, answer = self._known(value)
        if known:
            return answer
        if self.full is None:
            self.full = self.build(param.type_descriptor)
        return self.full.coerce(value, param=param, ctx=ctx)


def install() -> bool:
    """Wrap typer's coercion (once); False, changing nothing, where typer is not the version this knows."""
    import importlib

    try:  # typer's own modules (its coercion is private to it: hence the checks below and the tests)
        core = importlib.import_module("typer.core")
        _coercion = importlib.import_module("typer._coercion")
    except ImportError:
        return False
    cls = getattr(core, "_TyperParameter", None)
    build = getattr(_coercion, "build_runtime_param", None)
    if cls is None or build is None or not hasattr(cls, "get_runtime_param") or \
            getattr(cls.get_runtime_param, "_tubedeck", False):
        return False

    def get_runtime_param(self: Any) -> Any:
        if getattr(self, "_runtime_param", None) is None:
            self._runtime_param = _Plain(self, build)
        return self._runtime_param

    get_runtime_param._tubedeck = True  # type: ignore[attr-defined]
    cls.get_runtime_param = get_runtime_param
    return True
