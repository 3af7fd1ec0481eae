// The official MCP client, from this folder's test dependencies, for the suites in tests/js.
export { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
export { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
