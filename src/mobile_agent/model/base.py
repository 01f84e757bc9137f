"""Chat messages (text and images), usage, and the ``ChatModel`` protocol every client implements."""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass, field
from typing import Literal, Protocol, Sequence, Union, runtime_checkable

from PIL import Image

from mobile_agent.types import to_rgb

Role = Literal["system", "user", "assistant"]


@dataclass(frozen=True)
class TextPart:
    """A piece of text in a message."""

    text: str


@dataclass(frozen=True)
class ImagePart:
    """An encoded image in a message (JPEG or PNG bytes), with its pixel size after resizing."""

    data: bytes
    mime: str
    width: int
    height: int

    def base64(self) -> str:
        return base64.b64encode(self.data).decode("ascii")

    def data_url(self) -> str:
        """``data:image/jpeg;base64,...`` as the chat-completions ``image_url`` wants it."""
        return f"data:{self.mime};base64,{self.base64()}"


Part = Union[TextPart, ImagePart]


@dataclass(frozen=True)
class Message:
    """One chat message: a role and its parts in order."""

    role: Role
    parts: tuple[Part, ...]

    @classmethod
    def text(cls, role: Role, text: str) -> Message:
        return cls(role, (TextPart(text),))

    @property
    def plain_text(self) -> str:
        """The text parts joined (images left out)."""
        return "\n".join(p.text for p in self.parts if isinstance(p, TextPart))

    @property
    def images(self) -> list[ImagePart]:
        return [p for p in self.parts if isinstance(p, ImagePart)]


@dataclass(frozen=True)
class Usage:
    """Tokens of one or more calls."""

    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(self.prompt_tokens + other.prompt_tokens, self.completion_tokens + other.completion_tokens)


@dataclass(frozen=True)
class ChatResponse:
    """A model's reply: its text, tokens, the cost where the price table knows the model, and timing."""

    text: str
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    cost_usd: float | None = None
    latency_s: float = 0.0
    attempts: int = 1


@runtime_checkable
class ChatModel(Protocol):
    """A multimodal chat model: messages (text and images) in, text with token usage out.

    Implementations raise :class:`mobile_agent.errors.ConfigError` for errors the user must fix
    (no key, key rejected, unknown model or endpoint) and :class:`mobile_agent.errors.ModelError`
    when a call fails after its bounded retries.
    """

    @property
    def name(self) -> str:
        """The model name as the provider knows it."""
        ...

    def complete(self, messages: Sequence[Message], *, max_tokens: int | None = None) -> ChatResponse: ...


def encode_image(image: Image.Image, max_side: int | None = 1024, quality: int = 80, fmt: str = "JPEG") -> ImagePart:
    """Resize ``image`` so that its longest side is at most ``max_side`` and encode it (JPEG by default).

    ``max_side=None`` or ``0`` keeps the size. ``quality`` is the JPEG quality (1..95).
    """
    if not 1 <= quality <= 100:
        raise ValueError(f"JPEG quality must be in 1..100, got {quality}")
    img = to_rgb(image)
    if max_side and max(img.size) > max_side:
        scale = max_side / float(max(img.size))
        new = (max(1, round(img.width * scale)), max(1, round(img.height * scale)))
        img = img.resize(new, Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    fmt = fmt.upper()
    if fmt == "JPEG":
        img.save(buf, "JPEG", quality=quality, optimize=True)
        mime = "image/jpeg"
    elif fmt == "PNG":
        img.save(buf, "PNG", optimize=True)
        mime = "image/png"
    else:
        raise ValueError(f"unsupported image format {fmt!r}: use JPEG or PNG")
    return ImagePart(buf.getvalue(), mime, img.width, img.height)
