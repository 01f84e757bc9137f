"""Every screen of the simulated phone, hashed: the check that a change to the simulator (its apps'
builders, the toolkit, the renderer) moved no pixel and no node of the tree.

    python bench/sim_screen_hashes.py [--out FILE] [--against SRC]

Walks the phone as the sim screen set does (home, each app, then each clickable node, two taps deep
in the light theme, one in the dark theme and in six looks of the wide set), and on every screen
whose tap opened the keyboard types a query and submits it (``coffee``, ``a``): the search and
results screens. Prints one line per screen (the first 16 hex digits of SHA-256 over its pixels and
its uiautomator dump, then where it is) and the total. With ``--against SRC`` (another checkout: its
``src`` is imported) it hashes that tree too, in a process of its own, and prints the screens that
differ. Asserts nothing; measured for issue 45: 653 screens, the same before and after.
"""

from __future__ import annotations

import hashlib
import random
import sys
from typing import Any, Callable


def walk(make: Callable[[], Any], label: str, depth: int = 2, max_screens: int = 260,
         max_taps: int = 14) -> list[tuple[str, str]]:
    from mobile_agent.screensets.measure import parse_tree

    phone = make()
    w, h = phone.size()
    out: list[tuple[str, str]] = []

    def add(name: str, ph: Any) -> str:
        img, xml = ph.screenshot(), ph.ui_tree()
        out.append((f"{label} {name}", hashlib.sha256(img.tobytes() + xml.encode()).hexdigest()))
        return xml

    add("home", phone)
    queue: list[tuple[str, list[tuple[int, int]]]] = [(app, []) for app in phone.app_names()]
    while queue and len(out) < max_screens:
        app, path = queue.pop(0)
        ph = make()
        ph.launch(app)
        where = app + "".join(f">{x},{y}" for x, y in path)
        try:
            for x, y in path:
                ph.tap(x, y)
        except Exception as exc:  # noqa: BLE001 - a refused tap is part of what is compared
            out.append((f"{label} {where} refused", type(exc).__name__))
            continue
        xml = add(where, ph)
        if ph.keyboard_shown and len(path) <= 2:  # a field: type and submit, as a user would
            for query in ("coffee", "a"):
                typed = make()
                typed.launch(app)
                for x, y in path:
                    typed.tap(x, y)
                typed.type_text(query + "\n")
                add(f"{where} typed {query}", typed)
        if len(path) >= depth:
            continue
        taps = [n for n in parse_tree(xml, w, h)
                if n.clickable and n.package != "com.android.systemui" and n.box.area >= 400]
        queue += [(app, path + [(n.box.center.x, n.box.center.y)]) for n in taps[:max_taps]]
    return out


def hashes() -> list[tuple[str, str]]:
    from mobile_agent.device.sim import SimPhone
    from mobile_agent.screensets.wide import wide_look

    lines = walk(lambda: SimPhone(seed=0), "light")
    lines += walk(lambda: SimPhone(seed=3, dark=True), "dark", depth=1)
    rng = random.Random("house-check")
    for i in range(6):
        wl = wide_look(rng)
        lines += walk(lambda: SimPhone(seed=i, width=wl.width, height=wl.height, dark=wl.dark, look=wl.look),
                      f"look{i}", depth=1, max_screens=40)
    return lines


def main() -> int:
    from _checkouts import arguments

    args = arguments(__doc__, "also write the lines to this file", "screens")
    lines = hashes()
    text = "".join(f"{d[:16]} {name}\n" for name, d in lines)
    total = hashlib.sha256("".join(d for _, d in lines).encode()).hexdigest()
    if args.lines_only:
        sys.stdout.write(text)
        return 0
    sys.stdout.write(text + f"screens {len(lines)} total {total}\n")
    if args.out is not None:
        args.out.write_text(text + f"screens {len(lines)} total {total}\n", encoding="utf-8")
    if args.against is not None:
        from _checkouts import compare_with

        compare_with(__file__, args.against, text, most=40)
    return 0


if __name__ == "__main__":
    sys.exit(main())
