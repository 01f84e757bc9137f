"""Point-output GUI models, one adapter per family and version: its prompt (the authors' action space
and our instruction), the image at the size it expects, its reply read into our typed operations, and
its coordinates mapped back to the phone's pixels as the authors' code maps them.

It lives in ``agent/`` (not ``model/``) because an adapter's product is our typed operations
(``agent/operations.py``), which the model layer must not know; the chat clients stay in ``model/``.

```python
from mobile_agent.agent.families import FamilyPlanner, family_for_model, get_family
family = family_for_model("ByteDance-Seed/UI-TARS-1.5-7B")   # or get_family("ui-tars-1.5")
planner = FamilyPlanner(chat_model, family)                   # the loop sees only typed operations
```

docs/models.md lists the families, their sources and their coordinates.
"""

from __future__ import annotations

from mobile_agent.agent.families.base import Family, Frame, Parsed, smart_resize
from mobile_agent.agent.families.planner import FamilyPlanner, planner_for
from mobile_agent.agent.families.registry import (FAMILIES, REACT, family_for_model, family_names, get_family,
                                                  point_format_hint)

__all__ = ["FAMILIES", "REACT", "Family", "FamilyPlanner", "Frame", "Parsed", "family_for_model", "family_names",
           "get_family", "planner_for", "point_format_hint", "smart_resize"]
