"""Multi-agent mode (``--mode multi``): a manager that plans and re-plans after every step, an executor
that carries out one operation for the current subgoal, a verifier with deterministic checks, named
notes that carry values across apps, and cycle detection that changes the route.

```python
from mobile_agent.agent import AgentSettings
from mobile_agent.agent.multi import MultiAgent
agent = MultiAgent(device, make_chat_model("gpt-4o"), perception, AgentSettings(max_steps=30),
                   executor_model=make_chat_model("gpt-4o-mini"))
result = agent.run("Check the weather and write it in a note", "runs/weather")
```
"""

from mobile_agent.agent.multi.loop import MultiAgent, MultiSettings
from mobile_agent.agent.multi.manager import ManagerReply, Subgoal, parse_manager_reply
from mobile_agent.agent.multi.notes import Notes

__all__ = ["MultiAgent", "MultiSettings", "ManagerReply", "Subgoal", "parse_manager_reply", "Notes"]
