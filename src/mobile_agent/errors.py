"""The package's exception hierarchy. Every error a user can cause has a message that names the cause and the fix."""

from __future__ import annotations


class MobileAgentError(Exception):
    """Base class of every error this package raises on purpose."""


class ConfigError(MobileAgentError):
    """A setting, option or environment variable is missing or invalid (CLI exit status 2)."""


class ImageError(MobileAgentError):
    """An image could not be read or decoded."""


class DeviceError(MobileAgentError):
    """The device refused an operation or could not be reached."""


class DeviceNotFoundError(DeviceError):
    """No device matches the request (none attached, unknown serial, no adb server)."""


class DeviceDisconnectedError(DeviceError):
    """The device went away during a run."""


class InvalidGestureError(DeviceError):
    """A gesture the device cannot perform: coordinates off the screen, negative duration..."""


class ModelError(MobileAgentError):
    """A chat model call failed after its retries, or cannot be made (no key, unknown model)."""


class ParseError(MobileAgentError):
    """A model reply could not be parsed into an operation."""
