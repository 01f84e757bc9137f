"""An MCP server for the phone: the tools of :class:`PhoneTools` published with the official ``mcp``
SDK (``mobile-agent mcp``), so that MCP clients (Claude Desktop, Cursor, other agents) can look
at the screen and operate it. The package is named ``mcpserver`` so that it never shadows the
SDK's own ``mcp`` package. See docs/mcp.md.
"""

from mobile_agent.mcpserver.server import build_server
from mobile_agent.mcpserver.tools import PhoneTools, RefusedError, ToolOptions, risk_of

__all__ = ["PhoneTools", "RefusedError", "ToolOptions", "build_server", "risk_of"]
