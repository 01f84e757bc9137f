"""The simulated phone: an Android-like device with the apps of the Mobile-Eval benchmark.

>>> from mobile_agent.device.sim import SimPhone
>>> phone = SimPhone(seed=0)
>>> phone.screenshot().size
(1080, 2400)
"""

from mobile_agent.device.sim.phone import App, Screen, SimPhone
from mobile_agent.device.sim.state import PhoneState

__all__ = ["App", "PhoneState", "Screen", "SimPhone"]
