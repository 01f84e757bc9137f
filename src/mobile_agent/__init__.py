"""mobile-agent: an autonomous agent that operates Android phones from screenshots.

The Python API, in one import (each name loads its layer on first use, so ``import mobile_agent``
itself stays light):

```python
from mobile_agent import Agent, AgentSettings, LLMPlanner, Perception, ScriptedChatModel, open_device

phone = open_device("sim")                    # or "adb", "adb:SERIAL", "ios", "ios:URL"
model = ScriptedChatModel([...])              # or make_chat_model("gpt-4o")
agent = Agent(phone, LLMPlanner(model), Perception(), AgentSettings(on_step=print, ask=lambda req: input(req.text)))
result = agent.run("Open the display settings", "runs/display")
result.outcome, result.completed, result.steps, result.out_dir
```

Layers (each a sub-package): ``device`` (the phone: adb or the simulated one), ``perception``
(OCR, icon detection, grounding), ``model`` (chat clients), ``agent`` (operations, prompts, the
step loop), ``bench`` (Mobile-Eval), ``report`` (HTML views), ``mcpserver`` (the MCP server),
``cli``.
"""

import typing as _typing

__version__ = "0.1.0"

#: public name -> the module that defines it (imported on first use)
_LAZY: dict[str, str] = {
    "Agent": "mobile_agent.api",
    "run_on_phones": "mobile_agent.api",
    "run_flow": "mobile_agent.flows",
    "load_flows": "mobile_agent.flows",
    "AgentSettings": "mobile_agent.agent",
    "RunResult": "mobile_agent.agent",
    "LLMPlanner": "mobile_agent.agent",
    "Plan": "mobile_agent.agent",
    "PlanContext": "mobile_agent.agent",
    "UserRequest": "mobile_agent.agent",
    "open_device": "mobile_agent.device",
    "Device": "mobile_agent.device",
    "Perception": "mobile_agent.perception",
    "Grounding": "mobile_agent.perception",
    "ParseResult": "mobile_agent.perception",
    "make_chat_model": "mobile_agent.model",
    "ScriptedChatModel": "mobile_agent.model",
    "Box": "mobile_agent.types",
    "Point": "mobile_agent.types",
    "MobileAgentError": "mobile_agent.errors",
    "ConfigError": "mobile_agent.errors",
    "DeviceError": "mobile_agent.errors",
    "ModelError": "mobile_agent.errors",
}

__all__ = ["__version__", *_LAZY]

if _typing.TYPE_CHECKING:  # for type checkers and editors; at run time the names load lazily
    from mobile_agent.agent import AgentSettings, LLMPlanner, Plan, PlanContext, RunResult, UserRequest
    from mobile_agent.api import Agent, run_on_phones
    from mobile_agent.device import Device, open_device
    from mobile_agent.errors import ConfigError, DeviceError, MobileAgentError, ModelError
    from mobile_agent.flows import load_flows, run_flow
    from mobile_agent.model import ScriptedChatModel, make_chat_model
    from mobile_agent.perception import Grounding, ParseResult, Perception
    from mobile_agent.types import Box, Point


def __getattr__(name: str) -> _typing.Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mobile_agent' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    """The public names only (what ``__all__`` lists), as a notebook's completion shows them."""
    return sorted(__all__)
