"""mobile-agent: an autonomous agent that operates Android phones from screenshots.

Layers (each a sub-package): ``device`` (the phone: adb or the simulated one), ``perception``
(OCR, icon detection, grounding), ``model`` (chat clients), ``agent`` (operations, prompts, the
step loop), ``bench`` (Mobile-Eval), ``report`` (HTML views), ``cli``.
"""

__version__ = "0.1.0"
