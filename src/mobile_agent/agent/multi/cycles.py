"""Cycle handling in multi mode: the same operation chosen on the same screen ``threshold`` times is a
cycle (the single agent's :class:`~mobile_agent.agent.reflection.LoopDetector` spots it). In single
mode that ends the run; here the operation is not carried out, the manager is told to choose another
route (search instead of scrolling, Back and retry, open the app fresh), and the executor is told not to
repeat it. After ``max_route_changes`` such changes the run ends as a loop."""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image

from mobile_agent.agent.operations import Operation
from mobile_agent.agent.reflection import LoopDetector, thumbnail, thumbs_differ

ROUTES = ("search for the target instead of scrolling", "Back and retry another way",
          "open the app fresh (Exit, then Open App)", "another wording of the text to tap")


@dataclass
class Cycle:
    """A cycle found: the operation, how often it was chosen on this screen, which change this is."""

    operation: Operation
    repeats: int
    change: int
    give_up: bool

    def alert(self) -> str:
        """What the manager is told."""
        return (f"cycle: the executor chose {self.operation} {self.repeats} times on the same screen without "
                f"progress; it was not carried out again. Choose another route ({'; '.join(ROUTES)}) and say it "
                f"in Route (route change {self.change})")

    def ban(self) -> str:
        """What the executor is told."""
        return (f"{self.operation} was chosen {self.repeats} times on this screen without progress: do not choose "
                "it again here; follow the manager's new route")


@dataclass
class CycleGuard:
    threshold: int = 3
    max_route_changes: int = 2
    changes: int = 0
    detector: LoopDetector = field(default_factory=LoopDetector)

    def __post_init__(self) -> None:
        self.detector = LoopDetector(self.threshold)

    def check(self, op: Operation, screen: Image.Image) -> Cycle | None:
        """Record ``op`` on ``screen``; a :class:`Cycle` when that makes ``threshold`` times. The count
        for that operation and screen starts afresh after a cycle, so a retry after a changed route
        is allowed; ``give_up`` is set once the changes are used up."""
        if not self.detector.is_loop(op, screen):
            self.detector.record(op, screen)
            return None
        repeats = self.detector.repeats(op, screen) + 1
        t = thumbnail(screen)
        self.detector._seen = [(o, s) for o, s in self.detector._seen if not (o == op and not thumbs_differ(s, t))]
        self.changes += 1
        return Cycle(op, repeats, self.changes, self.changes > self.max_route_changes)
