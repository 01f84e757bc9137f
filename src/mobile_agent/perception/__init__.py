"""Visual perception: OCR, icon detection and matching, text/app/icon grounding, screen change.

```python
from mobile_agent.perception import Perception
p = Perception()                      # RapidOCR, classical icon detector, offline icon matcher
res = p.parse(screenshot)             # text lines with word boxes, timings
g = p.ground_text(screenshot, "Dark theme")
if g.found: device.tap(*g.point.as_tuple())
```
Perception never calls an LLM: where several candidates fit it asks through ``choose``.
"""

from mobile_agent.perception.change import changed_regions, screen_changed
from mobile_agent.perception.core import Perception
from mobile_agent.perception.results import (
    Candidate,
    ChooseFn,
    Grounding,
    IconBox,
    ParseResult,
    TextLine,
    Word,
)

__all__ = [
    "Candidate",
    "ChooseFn",
    "Grounding",
    "IconBox",
    "ParseResult",
    "Perception",
    "TextLine",
    "Word",
    "changed_regions",
    "screen_changed",
]
