"""Chat clients for multimodal LLMs (OpenAI-compatible, Anthropic, scripted), with usage and cost.

```python
from mobile_agent.model import make_chat_model, Message, TextPart, encode_image
model = make_chat_model("gpt-4o", base_url=None, api_key_env="OPENAI_API_KEY")
reply = model.complete([Message("user", (TextPart("hi"), encode_image(img)))])
reply.text, reply.usage.total_tokens, reply.cost_usd
```
"""

from mobile_agent.model.base import (
    ChatModel, ChatResponse, ImagePart, Message, Part, TextPart, Usage, encode_image,
)
from mobile_agent.model.factory import make_chat_model, split_spec
from mobile_agent.model.pricing import Price, PriceTable
from mobile_agent.model.retry import RetryPolicy
from mobile_agent.model.scripted import ScriptedChatModel

__all__ = [
    "ChatModel", "ChatResponse", "ImagePart", "Message", "Part", "TextPart", "Usage", "encode_image",
    "make_chat_model", "split_spec", "Price", "PriceTable", "RetryPolicy", "ScriptedChatModel",
]
