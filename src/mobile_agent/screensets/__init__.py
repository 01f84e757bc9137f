"""Screen sets: screens with known targets on which perception is measured, apart from Mobile-Eval.

The synthetic sets are drawn from a seed and frozen by their digest (text stress, held-out text,
held-out icons v1 and v2, icon stress, Material styles; the simulated phone's screens and the wide
set with the phone's tree as ground truth); a real folder is screenshots with their uiautomator
dumps (:mod:`mobile_agent.screensets.realscreens`). :mod:`mobile_agent.screensets.measure` holds
what every set is measured with (the tree's targets, the cached OCR, the position hint, the
perception benchmark's figures). Nothing here imports Mobile-Eval (``mobile_agent.bench``).
"""
