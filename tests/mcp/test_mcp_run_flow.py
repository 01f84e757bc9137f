"""The MCP run_flow tool (issue 55, item 5): a flow's YAML run on the server's phone through the SDK's
own client, in-process, on the simulated phone with the real perception. A plain flow passes with
its folder and page; the flow's taps go through the server's confirm gate (Send is refused, as the
tap tool refuses it) and allow-list; a flow that cannot be run as written is refused naming its line."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client

from mobile_agent.device.sim import SimPhone
from mobile_agent.mcpserver import PhoneTools, ToolOptions, build_server
from mobile_agent.perception import Perception

from mcp_helpers import data_of, run, text_of

PLAIN = "name: Display\napp: Settings\nsteps:\n  - tap: Display\n  - assertVisible: Dark theme\n"
SENDS = "name: Send a mail\napp: Mail\nsteps:\n  - tap: Compose\n  - tap: {icon: send}\n  - back\n"
ELSEWHERE = "name: Notes\nsteps:\n  - launch: Notes\n"


@pytest.fixture(scope="module")
def perception() -> Perception:
    return Perception()


def test_run_flow_runs_a_flow_through_the_servers_gates(perception, tmp_path):
    phone = SimPhone()
    tools = PhoneTools(phone, perception, ToolOptions(runs_dir=tmp_path, allowed_apps=("Settings", "Mail")))

    async def scenario():
        async with Client(build_server(tools)) as client:
            return [await client.call_tool("run_flow", {"flow": f}) for f in (PLAIN, SENDS, ELSEWHERE,
                                                                               "steps:\n  - tapp: Display\n",
                                                                               "steps:\n  - assert: It is on\n")]

    plain, sends, elsewhere, typo, no_model = run(scenario)
    ok = data_of(plain)
    assert ok["passed"] and [s["status"] for s in ok["steps"]] == ["passed"] * 3, ok
    assert Path(ok["report"]).is_file() and (Path(ok["folder"]) / "flow.json").is_file()
    refused = data_of(sends)
    assert not refused["passed"] and [s["status"] for s in refused["steps"]] == ["passed", "passed", "failed",
                                                                                 "skipped"], refused
    assert "step 3 (line 5), tap: {'icon': 'send'}: not tapped:" in refused["failure"], refused["failure"]
    assert "sends" in refused["failure"] and phone.state.mail.sent == []  # refused before the tap: nothing sent
    outside = data_of(elsewhere)
    assert not outside["passed"] and "allow-list" in outside["failure"] and phone.state.foreground != "Notes"
    assert typo.is_error and "flow.yaml:2: unknown step 'tapp' (did you mean tap" in text_of(typo), text_of(typo)
    assert no_model.is_error and "line 2 (assert); start the server with --model" in text_of(no_model)
