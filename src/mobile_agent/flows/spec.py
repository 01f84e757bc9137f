"""Flow files: YAML test flows of plain steps (no model) and the agent's steps, read and checked
before any phone is touched. One flow a file; a bad file is a :class:`FlowError` naming the file, the
line and what is wrong (an unknown step with the step names it could have meant). The mapping forms
of the steps (``{app, fresh}``, ``{icon, position}``, ``{text, timeout}``, ``{name, ask, type}``...) are
pydantic models that allow no other key and coerce no type, so a misspelt key is refused, not ignored.

A flow::

    name: Dark mode from Settings
    app: Settings            # launched first
    seed: 0                  # the simulated phone's seed (a fresh phone for each flow)
    env: {THEME: Dark}       # ${THEME} in any step; ${NAME} not in env is read from the environment
    retry: 1                 # tries again each failing step once (a step may say its own retry)
    timeout: 300             # seconds for the whole flow
    tags: [smoke]
    secrets: [PIN]           # ${PIN}'s value from --secret PIN=... or the environment, never the file
    look: {lang: zh}         # how the simulated phone draws (device/sim/look.py's Look)
    steps:
      - tap: Display
      - assertVisible: ${THEME} theme
      - ai: Turn on the dark theme
      - assert: The dark theme is on
      - query: {name: count, ask: How many options are on the screen?, type: number}
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mobile_agent.errors import ConfigError

#: every step a flow may hold, with what its value is (for the messages)
STEPS: dict[str, str] = {
    "launch": "an app's name or package, or {app: NAME, fresh: true}",
    "tap": "a text on the screen, {icon: DESCRIPTION, position: ...} or {point: [x, y]}",
    "longPress": "a text, {icon: ..., position: ...} or {point: [x, y]}",
    "type": "the text to type",
    "swipe": "up, down, left or right, or {from: [x, y], to: [x, y]}",
    "back": "nothing",
    "home": "nothing",
    "wait": "seconds",
    "waitFor": "a text, or {text: TEXT, timeout: SECONDS}",
    "assertVisible": "a text that must be on the screen",
    "assertNotVisible": "a text that must not be on the screen",
    "ai": "an instruction the agent carries out with the model",
    "assert": "a statement the model judges true or false on the screen",
    "query": "{name: NAME, ask: QUESTION, type: string|number|boolean|list|object}",
}
MODEL_STEPS = frozenset({"ai", "assert", "query"})
FLOW_KEYS = ("name", "app", "seed", "look", "env", "secrets", "retry", "timeout", "tags", "steps", "maxSteps")
QUERY_TYPES = ("string", "number", "boolean", "list", "object")
DIRECTIONS = ("up", "down", "left", "right")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


class FlowError(ConfigError):
    """A flow file that cannot be run as written (CLI exit status 2)."""


@dataclass(frozen=True)
class Step:
    """One step: its kind (a key of :data:`STEPS`), its value, its line in the file, its retries."""

    kind: str
    value: Any
    line: int
    retry: int = 0

    def __str__(self) -> str:
        if self.value is None:
            return self.kind
        return f"{self.kind}: {self.value}"


@dataclass
class Flow:
    """A flow read from ``path``: its name, the app launched first, the phone's seed, its
    parameters, retries, time limit, tags and steps."""

    path: Path
    name: str
    steps: list[Step]
    app: str | None = None
    seed: int = 0
    env: dict[str, str] = field(default_factory=dict)
    retry: int = 0
    timeout: float = 600.0
    tags: tuple[str, ...] = ()
    max_steps: int = 20
    #: names whose values are secrets (``--secret NAME=VALUE`` or the environment), never in the file
    secrets: tuple[str, ...] = ()
    #: the simulated phone's look (keyword arguments of ``Look``), {} for the default
    look: dict[str, Any] = field(default_factory=dict)

    @property
    def needs_model(self) -> bool:
        return any(s.kind in MODEL_STEPS for s in self.steps)


def _suggest(word: str, choices: Any) -> str:
    from rapidfuzz import process

    near = [c for c, score, _ in process.extract(word, list(choices), limit=3) if score >= 60]
    return f" (did you mean {' or '.join(near)}?)" if near else ""


def _lines_of_steps(text: str) -> list[int]:
    """The line (1-based) of each item of the top-level ``steps`` list, in order."""
    import yaml

    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return []
    if not isinstance(root, yaml.MappingNode):
        return []
    for key, value in root.value:
        if getattr(key, "value", None) == "steps" and isinstance(value, yaml.SequenceNode):
            return [item.start_mark.line + 1 for item in value.value]
    return []


def _fail(path: Path, line: int | None, what: str) -> FlowError:
    where = f"{path}:{line}" if line else str(path)
    return FlowError(f"{where}: {what}")


def _forms() -> dict[str, Any]:
    """The mapping forms of the steps that take one, as pydantic models (no other key allowed,
    no type coerced): {step: model}."""
    from typing import Literal, Optional

    from pydantic import BaseModel, ConfigDict, Field

    strict = ConfigDict(extra="forbid", strict=True)

    class Launch(BaseModel):
        model_config = strict
        app: str = Field(min_length=1)
        fresh: bool = False

    class Target(BaseModel):
        model_config = strict
        icon: Optional[str] = None
        text: Optional[str] = None
        position: Optional[str] = None
        point: Optional[list[int]] = Field(default=None, min_length=2, max_length=2)

    class Swipe(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)
        start: list[int] = Field(alias="from", min_length=2, max_length=2)
        to: list[int] = Field(min_length=2, max_length=2)

    class WaitFor(BaseModel):
        model_config = strict
        text: str = Field(min_length=1)
        timeout: float = Field(default=10, ge=0, le=600)

    class Query(BaseModel):
        model_config = strict
        name: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
        ask: str = Field(min_length=1)
        type: Literal["string", "number", "boolean", "list", "object"] = "string"

    return {"launch": Launch, "tap": Target, "longPress": Target, "swipe": Swipe, "waitFor": WaitFor,
            "query": Query}


_FORMS: dict[str, Any] = {}


def _check_form(path: Path, line: int, kind: str, value: dict[str, Any]) -> None:
    """``value``, the mapping form of step ``kind``, checked by its pydantic model; a
    :class:`FlowError` naming the first key that is wrong (and, for an unknown key, the keys meant)."""
    from pydantic import ValidationError

    if not _FORMS:
        _FORMS.update(_forms())
    model = _FORMS[kind]
    try:
        model.model_validate(value)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = str(err["loc"][0]) if err["loc"] else ""
        keys = [f.alias or n for n, f in model.model_fields.items()]
        if err["type"] == "extra_forbidden":
            why = f"unknown key {key!r}{_suggest(key, keys)}"
        elif err["type"] == "literal_error" and kind == "query":
            why = f"type {value.get('type')!r} is not one of {', '.join(QUERY_TYPES)}" \
                  f"{_suggest(str(value.get('type')), QUERY_TYPES)}"
        else:
            why = f"{key}: {err['msg'].lower()} (got {_short(err.get('input'))})" if key else err["msg"].lower()
        raise _fail(path, line, f"{kind}: {why}; it takes {STEPS[kind]}") from None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _check_value(path: Path, line: int, kind: str, value: Any) -> None:
    def bad(why: str) -> FlowError:
        return _fail(path, line, f"{kind}: {why}; it takes {STEPS[kind]}")

    if kind in ("back", "home"):
        if value is not None:
            raise bad(f"takes no value (got {value!r})")
        return
    if value is None:
        raise bad("has no value")
    if kind in ("type", "ai", "assert", "assertVisible", "assertNotVisible"):
        if not isinstance(value, (str, int, float)) or isinstance(value, bool) or not str(value).strip():
            raise bad(f"needs a text (got {value!r})")
    elif kind == "wait":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 600:
            raise bad(f"needs a number of seconds from 0 to 600 (got {value!r})")
    elif kind == "launch":
        if isinstance(value, dict):
            if not isinstance(value.get("app"), str) or set(value) - {"app", "fresh"}:
                raise bad(f"needs {{app: NAME}} and optionally fresh: true (got {value!r})")
        elif not isinstance(value, str) or not value.strip():
            raise bad(f"needs an app's name (got {value!r})")
    elif kind in ("tap", "longPress"):
        if isinstance(value, dict):
            if "point" in value:
                pt = value["point"]
                if not (isinstance(pt, list) and len(pt) == 2 and all(isinstance(v, int) and not isinstance(v, bool)
                                                                      for v in pt)):
                    raise bad(f"point needs [x, y] in pixels (got {pt!r})")
            elif not isinstance(value.get("icon"), str):
                raise bad(f"needs a text, an icon or a point (got {value!r})")
            extra = set(value) - {"icon", "position", "point", "text"}
            if extra:
                raise bad(f"unknown key {sorted(extra)[0]!r}{_suggest(sorted(extra)[0], ['icon', 'position', 'point'])}")
        elif not isinstance(value, (str, int)) or isinstance(value, bool) or not str(value).strip():
            raise bad(f"needs a text (got {value!r})")
    elif kind == "swipe":
        if isinstance(value, dict):
            pts = [value.get("from"), value.get("to")]
            if not all(isinstance(p, list) and len(p) == 2 and all(isinstance(v, int) for v in p) for p in pts):
                raise bad(f"needs {{from: [x, y], to: [x, y]}} (got {value!r})")
        elif value not in DIRECTIONS:
            raise bad(f"{value!r} is not a direction{_suggest(str(value), DIRECTIONS)}")
    elif kind == "waitFor":
        if isinstance(value, dict):
            if not isinstance(value.get("text"), str) or not isinstance(value.get("timeout", 10), (int, float)):
                raise bad(f"needs {{text: TEXT, timeout: SECONDS}} (got {value!r})")
        elif not isinstance(value, str):
            raise bad(f"needs a text (got {value!r})")
    elif kind == "query":
        if not isinstance(value, dict) or not isinstance(value.get("name"), str) \
                or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value.get("name", "")) \
                or not isinstance(value.get("ask"), str):
            raise bad(f"needs {{name: NAME, ask: QUESTION, type: ...}} with a name of letters, digits and _ "
                      f"(got {value!r})")
        if value.get("type", "string") not in QUERY_TYPES:
            raise bad(f"type {value.get('type')!r} is not one of {', '.join(QUERY_TYPES)}"
                      f"{_suggest(str(value.get('type')), QUERY_TYPES)}")
    if isinstance(value, dict) and kind in ("launch", "tap", "longPress", "swipe", "waitFor", "query"):
        _check_form(path, line, kind, value)


def parse_flow(text: str, path: str | Path = "<flow>") -> Flow:
    """The flow ``text`` holds (the contents of ``path``), checked whole; a :class:`FlowError` naming
    the line of the first problem."""
    import yaml

    path = Path(path)
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise _fail(path, line, f"not valid YAML: {problem}") from None
    if not isinstance(data, dict):
        raise _fail(path, 1, "a flow is a mapping with a steps list (name: ..., steps: [...])")
    unknown = [k for k in data if k not in FLOW_KEYS]
    if unknown:
        raise _fail(path, None, f"unknown flow key {unknown[0]!r}{_suggest(str(unknown[0]), FLOW_KEYS)}; "
                                f"a flow has {', '.join(FLOW_KEYS)}")
    steps_raw = data.get("steps")
    if not isinstance(steps_raw, list) or not steps_raw:
        raise _fail(path, None, "the flow has no steps (steps: a list of one-key mappings, e.g. - tap: Settings)")
    lines = _lines_of_steps(text)

    def num(key: str, default: Any, kind: type, low: float, high: float) -> Any:
        v = data.get(key, default)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not low <= v <= high \
                or (kind is int and not isinstance(v, int)):
            raise _fail(path, None, f"{key}: needs {'a whole number' if kind is int else 'a number'} from {low:g} "
                                    f"to {high:g} (got {v!r})")
        return kind(v)

    retry = num("retry", 0, int, 0, 10)
    steps: list[Step] = []
    for i, raw in enumerate(steps_raw):
        line = lines[i] if i < len(lines) else 0
        own_retry = retry
        if isinstance(raw, str):
            kind, value = raw, None
        elif isinstance(raw, dict) and raw:
            raw = dict(raw)
            if "retry" in raw and len(raw) > 1:
                r = raw.pop("retry")
                if isinstance(r, bool) or not isinstance(r, int) or not 0 <= r <= 10:
                    raise _fail(path, line, f"retry: needs a whole number from 0 to 10 (got {r!r})")
                own_retry = r
            if len(raw) != 1:
                raise _fail(path, line, f"a step is one key (and optionally retry), got {sorted(raw)}")
            (kind, value), = raw.items()
        else:
            raise _fail(path, line, f"a step is a one-key mapping such as '- tap: Settings' (got {raw!r})")
        if kind not in STEPS:
            raise _fail(path, line, f"unknown step {kind!r}{_suggest(str(kind), STEPS)}; the steps are "
                                    f"{', '.join(STEPS)}")
        _check_value(path, line, kind, value)
        steps.append(Step(kind, value, line, own_retry))
    env = data.get("env") or {}
    if not isinstance(env, dict) or not all(isinstance(k, str) for k in env):
        raise _fail(path, None, f"env: needs a mapping of names to values (got {env!r})")
    tags = data.get("tags") or []
    if isinstance(tags, str):
        tags = [tags]
    if not isinstance(tags, list):
        raise _fail(path, None, f"tags: needs a list of words (got {tags!r})")
    app = data.get("app")
    if app is not None and (not isinstance(app, str) or not app.strip()):
        raise _fail(path, None, f"app: needs an app's name (got {app!r})")
    secrets = data.get("secrets") or []
    if isinstance(secrets, str):
        secrets = [secrets]
    if not isinstance(secrets, list) or not all(isinstance(n, str) and _NAME.fullmatch(n) for n in secrets):
        raise _fail(path, None, f"secrets: needs a list of names of letters, digits and _ (got {secrets!r}); "
                                "their values come from --secret NAME=VALUE or the environment")
    in_env = [n for n in secrets if n in env]
    if in_env:
        raise _fail(path, None, f"secrets: {in_env[0]} has its value in env:, in the file; give it with --secret "
                                f"{in_env[0]}=VALUE or the environment instead")
    look = _look(path, data.get("look"))
    name = data.get("name") or path.stem
    return Flow(path, str(name), steps, app, num("seed", 0, int, 0, 2 ** 31 - 1),
                {k: str(v) for k, v in env.items()}, retry, num("timeout", 600, float, 1, 86400),
                tuple(str(t) for t in tags), num("maxSteps", 20, int, 1, 200), tuple(secrets), look)


def _look(path: Path, raw: Any) -> dict[str, Any]:
    """The ``look:`` mapping, checked by building the simulated phone's ``Look`` from it."""
    if raw is None:
        return {}
    from dataclasses import fields

    from mobile_agent.device.sim.look import Look

    keys = [f.name for f in fields(Look)]
    if not isinstance(raw, dict):
        raise _fail(path, None, f"look: needs a mapping of {', '.join(keys)} (got {raw!r})")
    unknown = [k for k in raw if k not in keys]
    if unknown:
        raise _fail(path, None, f"look: unknown key {unknown[0]!r}{_suggest(str(unknown[0]), keys)}; a look has "
                                f"{', '.join(keys)}")
    try:
        Look(**raw)
    except (ConfigError, TypeError) as exc:
        raise _fail(path, None, f"look: {exc}") from None
    return dict(raw)


def load_flows(paths: Any) -> list[Flow]:
    """The flows in ``paths`` (files, or folders whose ``*.yaml`` / ``*.yml`` files are each a flow,
    in name order), each checked; a :class:`FlowError` for the first that is not a flow."""
    files: list[Path] = []
    for p in [Path(p) for p in ([paths] if isinstance(paths, (str, Path)) else paths)]:
        if p.is_dir():
            found = sorted([*p.glob("*.yaml"), *p.glob("*.yml")])
            if not found:
                raise FlowError(f"{p} holds no flow (*.yaml or *.yml files)")
            files += found
        elif p.is_file():
            files.append(p)
        else:
            raise FlowError(f"{p} is not a flow file or folder")
    flows = []
    for f in files:
        try:
            text = f.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise FlowError(f"{f}: cannot be read ({exc})") from None
        flows.append(parse_flow(text, f))
    return flows


def substitute(value: Any, variables: dict[str, str]) -> Any:
    """``value`` with every ``${NAME}`` replaced by its variable; a :class:`KeyError` naming one
    that has none."""
    if isinstance(value, str):
        def one(m: re.Match[str]) -> str:
            if m.group(1) not in variables:
                raise KeyError(m.group(1))
            return variables[m.group(1)]

        return _VAR.sub(one, value)
    if isinstance(value, list):
        return [substitute(v, variables) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, variables) for k, v in value.items()}
    return value
