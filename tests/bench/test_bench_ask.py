"""The ask tier (--suite mobile-eval-ask): its reference plans by the tree, the simulated user, the
sign-in screen of Mail, the question counts, and runs through perception (oracle and noisy) and a
model on the localhost chat server."""

from __future__ import annotations

import json
import re

import pytest

from mobile_agent.agent.operations import AskUser
from mobile_agent.agent.user import UserRequest
from mobile_agent.bench.metrics import ProgressTracker
from mobile_agent.bench.runner import EvalConfig, run_eval, run_task
from mobile_agent.bench.suite import SUITES, select, suite_defs
from mobile_agent.bench.tables import question_summary
from mobile_agent.bench.treeplay import replay
from mobile_agent.bench.user import CANNOT_HELP, DONT_KNOW, TOOK_OVER, SimulatedUser, questions_needed
from mobile_agent.device.uitree import TreeDriver

SUITE = "mobile-eval-ask"
IDS = [d.id for d in suite_defs(SUITE)]


def test_the_tier_and_its_tasks():
    assert SUITE in SUITES and IDS == ["ask-none", "ask-contact", "ask-size", "ask-code", "ask-login"]
    needed = {t.id: questions_needed(t) for t in select(SUITE)}
    assert needed == {"ask-none": 0, "ask-contact": 1, "ask-size": 1, "ask-code": 1, "ask-login": 1}
    for t in select(SUITE):  # what only the user knows is not in the instruction
        for fact in t.facts:
            assert not re.search(rf"(?<!\w){re.escape(fact.answer)}(?!\w)", t.instruction, re.IGNORECASE)


@pytest.mark.parametrize("task_id", IDS)
def test_plans_succeed_by_the_tree_with_milestones_in_order(task_id):
    for task in select(SUITE, ids=[task_id], variants=4):
        metrics, reached = replay(task)
        assert metrics.success, task.key
        n = len(task.milestones)
        assert reached == list(range(1, n + 1)) + [n], (task.key, reached)
        assert metrics.ps == 1.0


def _user(task_id: str, variant: int = 0):
    task = select(SUITE, ids=[f"{task_id}#{variant}"])[0]
    phone = task.make_phone()
    return task, phone, SimulatedUser(task, phone)


def test_the_simulated_user_answers_from_the_hidden_facts_and_nothing_else():
    task, phone, user = _user("ask-contact", 1)
    who = task.facts[0].answer
    assert user(UserRequest("question", "Which Anna do you mean?", 1)) == who
    assert user(UserRequest("question", "What is her e-mail address?", 2)) == who
    assert user(UserRequest("question", "Should I go on?", 3)) == DONT_KNOW
    assert user(UserRequest("question", "Annabel?", 4)) == DONT_KNOW  # a word, not a part of one
    assert user(UserRequest("take_over", "please sign in", 5)) == CANNOT_HELP
    counts = user.counts()
    assert (counts["asked"], counts["answered"], counts["needed"]) == (5, 2, 1)
    _, _, sizes = _user("ask-size", 2)
    assert sizes(UserRequest("question", "What size do you wear?", 1)) == select(SUITE, ids=["ask-size#2"])[0].facts[0].answer
    _, _, codes = _user("ask-code")
    assert codes(UserRequest("question", "What is the verification code?", 1)) == "482913"


def test_mail_signed_out_takes_the_owner_or_the_right_code():
    task, phone, user = _user("ask-login")
    phone.launch("Mail")
    d = TreeDriver(phone)
    d.tap(text="Password")
    phone.type_text("hunter2\n")  # no password the agent could type signs in
    assert not phone.state.mail.signed_in and "Wrong password. Try again or ask the account's owner." in d.visible_labels()
    assert user(UserRequest("take_over", "Please sign in", 1)) == TOOK_OVER
    assert phone.state.mail.signed_in and "Compose" in TreeDriver(phone).visible_labels()

    task, phone, user = _user("ask-code")
    phone.launch("Mail")
    d = TreeDriver(phone)
    d.tap(text="Code")
    phone.type_text("000000\n")
    assert not phone.state.mail.signed_in and "Wrong code. Try again." in d.visible_labels()


def test_milestones_wait_for_what_only_the_user_knows():
    """Opening Mail and writing to a guessed Anna reaches no milestone: each holds only once the
    user said which Anna."""
    task, phone, user = _user("ask-contact")
    tracker = ProgressTracker(task, phone, user)
    phone.launch("Mail")
    assert tracker.after_step(1, task.plan[1].op, True).reached == 0
    user(UserRequest("question", "Which Anna?", 2))
    assert tracker.after_step(2, AskUser("Which Anna?"), True).reached == 2


@pytest.mark.slow
def test_the_oracle_asks_where_a_person_would_and_the_counts_are_stored(tmp_path):
    run = run_eval(EvalConfig(suite=SUITE), select(SUITE, ids=["ask-code", "ask-none"]), tmp_path)
    rows = {r.task_key: r for r in run.rows}
    code = rows["ask-code"]
    assert code.success and code.ps == 1.0 and code.steps == code.human_steps, code.detail.get("first_wrong")
    assert code.detail["questions"]["asked"] == 1 and code.detail["questions"]["answered"] == 1
    assert code.detail["questions"]["requests"][0]["answer"] == "482913"
    steps = [json.loads(line) for line in (tmp_path / run.config_id / "ask-code" / "steps.jsonl").read_text().splitlines()]
    assert steps[1]["user"] == {"kind": "question", "text": steps[1]["operation"]["question"], "answer": "482913",
                                "waited_s": steps[1]["user"]["waited_s"]}
    summary = question_summary(run.rows)
    assert summary is not None and (summary["asked"], summary["needed"], summary["extra"]) == (1, 1, 0)
    from mobile_agent.report.benchmark import write_benchmark_report

    page = write_benchmark_report(tmp_path).read_text(encoding="utf-8")
    assert ("Questions to the user: 1 asked (1 answered from hidden facts or carried out) where the reference plans ask 1; "
            "0.50 asked and 0.50 needed per run, 0 beyond what was needed.") in page
    assert page.count('<td class="questions">') == 2 and '<td class="questions">1 / 1</td>' in page


@pytest.mark.slow
def test_a_needless_question_of_the_noisy_planner_costs_a_step_and_is_counted(tmp_path):
    from mobile_agent.bench.noisy import NoiseRates, NoisyPlanner

    task = select(SUITE, ids=["ask-none"])[0]
    planner = NoisyPlanner(task, rates=NoiseRates(app_case=0, text=0, icon=0, wrong_position=0, wrong_step=0,
                                                  question=0, needless_question=1.0))
    from mobile_agent.bench import runner

    original = runner.make_planner
    runner.make_planner = lambda config, t, perception=None: planner
    try:
        row = run_task(EvalConfig(suite=SUITE, planner="noisy"), task, tmp_path, "cfg")
    finally:
        runner.make_planner = original
    assert row.success and row.steps > row.human_steps
    q = row.detail["questions"]
    assert q["asked"] >= 1 and q["answered"] == 0 and q["needed"] == 0
    assert all(r["answer"] == DONT_KNOW for r in q["requests"])
    wrong = [j for j in row.detail["steps"] if j["action"].startswith("Ask User")]
    assert wrong and not any(j["correct"] for j in wrong)


def test_a_model_asks_the_simulated_user_over_the_chat_server(tmp_path):
    """The LLM planner in the benchmark: the prompt offers Ask User on the ask tier only, and the
    simulated user's answer is in the next request."""
    from tests.fakes.agent_harness import Script, plan_requests, react
    from tests.fakes.chatserver import LocalChatServer

    replies = [react("Ask User (Which Anna do you mean?)"), react("Stop")]
    task = select(SUITE, ids=["ask-contact"])[0]
    with LocalChatServer(Script(replies)) as server:
        config = EvalConfig(suite=SUITE, planner="model", model="gpt-4o-test", base_url=server.openai_base_url,
                            api_key_env="ASK_BENCH_KEY")
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("ASK_BENCH_KEY", "k")
            row = run_task(config, task, tmp_path, "cfg")
    reqs = plan_requests(server)
    assert "- Ask User (question):" in reqs[0].body["messages"][0]["content"]
    assert f'the user answered "{task.facts[0].answer}"' in reqs[1].text
    assert row.detail["questions"]["answered"] == 1 and not row.success


@pytest.mark.slow
def test_eval_prints_the_question_counts_and_writes_them_to_results_json(tmp_path, capsys):
    from mobile_agent.cli import main

    out = tmp_path / "eval"
    assert main(["eval", "--suite", SUITE, "--tasks", "ask-login", "--out", str(out),
                 "--json", str(tmp_path / "r.json")]) == 0
    printed = capsys.readouterr().out
    assert "Questions to the user" in printed and re.search(r"ask-login +│ +1 │ +1 │ +1 │ +1 │", printed), printed
    data = json.loads((tmp_path / "r.json").read_text())
    assert {k: data["questions"][k] for k in ("runs", "asked", "answered", "needed", "extra")} == {
        "runs": 1, "asked": 1, "answered": 1, "needed": 1, "extra": 0}
    assert data["questions"]["tasks"] == [{"task": "ask-login", "asked": 1, "answered": 1, "needed": 1,
                                           "success": True}]
