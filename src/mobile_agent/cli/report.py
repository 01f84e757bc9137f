"""CLI command: ``mobile-agent report RUN_DIR [--out FILE.html]`` (a run folder or an eval output folder)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to the main app."""

    @app.command("report")
    def report(
        run_dir: Path = typer.Argument(..., help="A run folder (summary.json, steps.jsonl, screens/) or an "
                                                  "`eval` output folder (results.sqlite)."),
        out: Optional[Path] = typer.Option(None, "--out", "-o", help="Where to write the HTML file "
                                                                     "(default: report.html in the folder)."),
        embed: bool = typer.Option(False, "--embed", help="Embed the screenshots in the file (a run report "
                                                         "that can be moved alone; larger)."),
    ) -> None:
        """Write the HTML report of a run, or the benchmark report of an eval output folder."""
        from mobile_agent.errors import ConfigError
        from mobile_agent.report import is_run_dir, write_benchmark_report, write_report
        from mobile_agent.report.benchmark import is_eval_dir

        if not run_dir.exists():
            raise ConfigError(f"folder not found: {run_dir} (give a run folder or an eval output folder)")
        if not run_dir.is_dir():
            raise ConfigError(f"{run_dir} is a file; give the folder a run or an eval wrote")
        if is_eval_dir(run_dir) or not is_run_dir(run_dir):
            path = write_benchmark_report(run_dir, out)
        else:
            path = write_report(run_dir, out, embed=embed)
        typer.echo(str(path))
