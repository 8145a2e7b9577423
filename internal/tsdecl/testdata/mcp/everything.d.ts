interface Everything_EchoInput {
  /** Message to echo */
  message: string;
}

interface Everything_GetAnnotatedMessageInput {
  /** Type of message to demonstrate different annotation patterns */
  messageType: "error" | "success" | "debug";
  /**
   * Whether to include an example image
   * @default false
   */
  includeImage?: boolean;
}

interface Everything_GetResourceLinksInput {
  /**
   * Number of resource links to return (1-10)
   * @default 3
   * @minimum 1
   * @maximum 10
   */
  count?: number;
}

interface Everything_GetResourceReferenceInput {
  /** @default "Text" */
  resourceType?: "Text" | "Blob";
  /**
   * ID of the text resource to fetch
   * @default 1
   */
  resourceId?: number;
}

interface Everything_GetStructuredContentInput {
  /** Choose city */
  location: "New York" | "Chicago" | "Los Angeles";
}

interface Everything_GetStructuredContentOutput {
  /** Temperature in celsius */
  temperature: number;
  /** Weather conditions description */
  conditions: string;
  /** Humidity percentage */
  humidity: number;
}

interface Everything_GetSumInput {
  /** First number */
  a: number;
  /** Second number */
  b: number;
}

interface Everything_GzipFileAsResourceInput {
  /**
   * Name of the output file
   * @default "README.md.gz"
   */
  name?: string;
  /**
   * URL or data URI of the file content to compress
   * @default "https://raw.githubusercontent.com/modelcontextprotocol/servers/refs/heads/main/README.md"
   * @format uri
   */
  data?: string;
  /**
   * How the resulting gzipped file should be returned. 'resourceLink' returns a link to a resource that can be read later, 'resource' returns a full resource object.
   * @default "resourceLink"
   */
  outputType?: "resourceLink" | "resource";
}

interface Everything_SimulateResearchQueryInput {
  /** The research topic to investigate */
  topic: string;
  /**
   * Simulate an ambiguous query that requires clarification (triggers input_required status)
   * @default false
   */
  ambiguous?: boolean;
}

interface Everything_TriggerLongRunningOperationInput {
  /**
   * Duration of the operation in seconds
   * @default 10
   */
  duration?: number;
  /**
   * Number of steps in the operation
   * @default 5
   */
  steps?: number;
}

declare const tools: {
  everything: {
    /** Echoes back the input string */
    echo(args: Everything_EchoInput): Promise<unknown>;
    /**
     * Demonstrates how annotations can be used to provide metadata about content.
     * Original name: "get-annotated-message".
     */
    get_annotated_message(args: Everything_GetAnnotatedMessageInput): Promise<unknown>;
    /**
     * Returns all environment variables, helpful for debugging MCP server configuration
     * Original name: "get-env".
     */
    get_env(): Promise<unknown>;
    /**
     * Returns up to ten resource links that reference different types of resources
     * Original name: "get-resource-links".
     */
    get_resource_links(args?: Everything_GetResourceLinksInput): Promise<unknown>;
    /**
     * Returns a resource reference that can be used by MCP clients
     * Original name: "get-resource-reference".
     */
    get_resource_reference(args?: Everything_GetResourceReferenceInput): Promise<unknown>;
    /**
     * Returns structured content along with an output schema for client data validation
     * Original name: "get-structured-content".
     */
    get_structured_content(args: Everything_GetStructuredContentInput): Promise<Everything_GetStructuredContentOutput>;
    /**
     * Returns the sum of two numbers
     * Original name: "get-sum".
     */
    get_sum(args: Everything_GetSumInput): Promise<unknown>;
    /**
     * Returns a tiny MCP logo image.
     * Original name: "get-tiny-image".
     */
    get_tiny_image(): Promise<unknown>;
    /**
     * Compresses a single file using gzip compression. Depending upon the selected output type, returns either the compressed data as a gzipped resource or a resource link, allowing it to be downloaded in a subsequent request during the current session.
     * Original name: "gzip-file-as-resource".
     */
    gzip_file_as_resource(args?: Everything_GzipFileAsResourceInput): Promise<unknown>;
    /**
     * Simulates a deep research operation that gathers, analyzes, and synthesizes information. Demonstrates MCP task-based operations with progress through multiple stages. If 'ambiguous' is true and client supports elicitation, sends an elicitation request for clarification.
     * Original name: "simulate-research-query".
     */
    simulate_research_query(args: Everything_SimulateResearchQueryInput): Promise<unknown>;
    /**
     * Toggles simulated, random-leveled logging on or off.
     * Original name: "toggle-simulated-logging".
     */
    toggle_simulated_logging(): Promise<unknown>;
    /**
     * Toggles simulated resource subscription updates on or off.
     * Original name: "toggle-subscriber-updates".
     */
    toggle_subscriber_updates(): Promise<unknown>;
    /**
     * Demonstrates a long running operation with progress updates.
     * Original name: "trigger-long-running-operation".
     */
    trigger_long_running_operation(args?: Everything_TriggerLongRunningOperationInput): Promise<unknown>;
  };
};
declare const everything: typeof tools.everything;

// Signatures:
// tools.everything.echo({message: string}): Promise<unknown>
// tools.everything.get_annotated_message({messageType: "error" | "success" | "debug", includeImage?: boolean}): Promise<unknown>
// tools.everything.get_env(): Promise<unknown>
// tools.everything.get_resource_links(args?: {count?: number}): Promise<unknown>
// tools.everything.get_resource_reference(args?: {resourceType?: "Text" | "Blob", resourceId?: number}): Promise<unknown>
// tools.everything.get_structured_content({location: "New York" | "Chicago" | "Los Angeles"}): Promise<{temperature: number, conditions: string, humidity: number}>
// tools.everything.get_sum({a: number, b: number}): Promise<unknown>
// tools.everything.get_tiny_image(): Promise<unknown>
// tools.everything.gzip_file_as_resource(args?: {name?: string, data?: string, outputType?: "resourceLink" | "resource"}): Promise<unknown>
// tools.everything.toggle_simulated_logging(): Promise<unknown>
// tools.everything.toggle_subscriber_updates(): Promise<unknown>
// tools.everything.trigger_long_running_operation(args?: {duration?: number, steps?: number}): Promise<unknown>
// tools.everything.simulate_research_query({topic: string, ambiguous?: boolean}): Promise<unknown>
