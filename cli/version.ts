/** The version bazaar reports (`--version`, MCP server info). */
export const VERSION = "0.1.0";
