"""Test flows for app teams (``mobile-agent test``): YAML files of plain steps that need no model
(``tap``, ``type``, ``assertVisible``...) and the agent's steps (``ai``, ``assert``, ``query``), run on
any device, with results as JSON and JUnit XML. See docs/flows.md."""

from mobile_agent.flows.runner import FlowResult, StepResult, junit_xml, run_flow, run_flows, write_summary
from mobile_agent.flows.spec import STEPS, Flow, FlowError, Step, load_flows, parse_flow

__all__ = ["STEPS", "Flow", "FlowError", "FlowResult", "Step", "StepResult", "junit_xml", "load_flows", "parse_flow",
           "run_flow", "run_flows", "write_summary"]
