package toolsearch

func memoryTools() []Doc {
	m := "memory"
	ents := []string{"entities: An array of entities", "entities.name: The name of the entity",
		"entities.entityType: The type of the entity",
		"entities.observations: An array of observation contents associated with the entity"}
	rels := []string{"relations: An array of relations", "relations.from: The name of the entity where the relation starts",
		"relations.to: The name of the entity where the relation ends",
		"relations.relationType: The type of the relation"}
	return []Doc{
		tool(m, "create_entities", "Create multiple new entities in the knowledge graph", ents...),
		tool(m, "create_relations", "Create multiple new relations between entities in the knowledge graph. Relations should be in active voice", rels...),
		tool(m, "add_observations", "Add new observations to existing entities in the knowledge graph",
			"observations: An array of observations", "observations.entityName: The name of the entity to add the observations to",
			"observations.contents: An array of observation contents to add"),
		tool(m, "delete_entities", "Delete multiple entities and their associated relations from the knowledge graph",
			"entityNames: An array of entity names to delete"),
		tool(m, "delete_observations", "Delete specific observations from entities in the knowledge graph",
			"deletions: An array of deletions", "deletions.entityName: The name of the entity containing the observations",
			"deletions.observations: An array of observations to delete"),
		tool(m, "delete_relations", "Delete multiple relations from the knowledge graph", rels...),
		tool(m, "read_graph", "Read the entire knowledge graph"),
		tool(m, "search_nodes", "Search for nodes in the knowledge graph based on a query",
			"query: The search query to match against entity names, types, and observation content"),
		tool(m, "open_nodes", "Open specific nodes in the knowledge graph by their names",
			"names: An array of entity names to retrieve"),
	}
}

func slackTools() []Doc {
	s := "slack"
	ch := "channel_id: The ID of the channel"
	return prefixed("slack_",
		tool(s, "list_channels", "List public or pre-defined channels in the workspace with pagination",
			"limit: Maximum number of channels to return (default 100, max 200)", "cursor: Pagination cursor for next page of results"),
		tool(s, "post_message", "Post a new message to a Slack channel",
			"channel_id: The ID of the channel to post to", "text: The message text to post"),
		tool(s, "reply_to_thread", "Reply to a specific message thread in Slack",
			"channel_id: The ID of the channel containing the thread",
			"thread_ts: The timestamp of the parent message in the format '1234567890.123456'. Timestamps in the format without the period can be converted by adding the period such that 6 numbers come after it.",
			"text: The reply text"),
		tool(s, "add_reaction", "Add a reaction emoji to a message",
			"channel_id: The ID of the channel containing the message", "timestamp: The timestamp of the message to react to",
			"reaction: The name of the emoji reaction (without ::)"),
		tool(s, "get_channel_history", "Get recent messages from a channel",
			ch, "limit: Number of messages to retrieve (default 10)"),
		tool(s, "get_thread_replies", "Get all replies in a message thread",
			"channel_id: The ID of the channel containing the thread",
			"thread_ts: The timestamp of the parent message in the format '1234567890.123456'."),
		tool(s, "get_users", "Get a list of all users in the workspace with their basic profile information",
			"cursor: Pagination cursor for next page of results", "limit: Maximum number of users to return (default 100, max 200)"),
		tool(s, "get_user_profile", "Get detailed profile information for a specific user",
			"user_id: The ID of the user"),
		tool(s, "search_messages", "Search for messages across the workspace using Slack search modifiers such as in:#channel and from:@user",
			"query: The search query", "count: Number of results to return (default 20)"),
		tool(s, "upload_file", "Upload a file to one or more Slack channels, optionally with an initial comment",
			"channels: Comma-separated channel IDs to share the file in", "filename: Name of the file",
			"content: File contents", "initial_comment: Message text introducing the file"),
	)
}

func jiraTools() []Doc {
	j := "jira"
	key := "issue_key: Jira issue key (e.g., 'PROJ-123')"
	return prefixed("jira_",
		tool(j, "get_issue", "Get details of a specific Jira issue including its Epic links and relationship information.",
			key, "fields: Comma-separated list of fields to return", "expand: Fields to expand, e.g. 'renderedFields', 'transitions', 'changelog'",
			"comment_limit: Maximum number of comments to include (0 or null for no comments)"),
		tool(j, "search", "Search Jira issues using JQL (Jira Query Language).",
			"jql: JQL query string, e.g. 'project = PROJ AND status = \"In Progress\"'", "fields: Comma-separated fields to return in the results",
			"limit: Maximum number of results (1-50)", "start_at: Starting index for pagination (0-based)"),
		tool(j, "create_issue", "Create a new Jira issue with optional Epic link or parent for subtasks.",
			"project_key: The JIRA project key (e.g. 'PROJ', 'DEV', 'SUPPORT'). This is the prefix of issue keys in your project.",
			"summary: Summary/title of the issue", "issue_type: Issue type (e.g. 'Task', 'Bug', 'Story', 'Epic', 'Subtask')",
			"assignee: Assignee's user identifier (email, display name, or account ID)", "description: Issue description",
			"components: Comma-separated list of component names to assign"),
		tool(j, "update_issue", "Update an existing Jira issue including changing status, adding Epic links, updating fields, etc.",
			key, "fields: A dictionary of fields to update", "additional_fields: Optional additional fields to update",
			"attachments: JSON string array or comma-separated list of file paths to attach to the issue"),
		tool(j, "delete_issue", "Delete an existing Jira issue.", key),
		tool(j, "add_comment", "Add a comment to a Jira issue.",
			key, "comment: Comment text in Markdown format"),
		tool(j, "transition_issue", "Transition a Jira issue to a new status.",
			key, "transition_id: ID of the transition to perform. Use the jira_get_transitions tool first to get the available transitions for an issue.",
			"fields: Fields to update during the transition", "comment: Comment to add during the transition"),
		tool(j, "get_transitions", "Get available status transitions for a Jira issue.", key),
		tool(j, "get_project_issues", "Get all issues for a specific Jira project.",
			"project_key: The project key", "limit: Maximum number of results (1-50)", "start_at: Starting index for pagination (0-based)"),
		tool(j, "create_issue_link", "Create a link between two Jira issues.",
			"link_type: The type of link to create (e.g., 'Duplicate', 'Blocks', 'Relates to')",
			"inward_issue_key: The key of the inward issue (e.g., 'PROJ-123')", "outward_issue_key: The key of the outward issue (e.g., 'PROJ-456')",
			"comment: Optional comment to add to the link"),
		tool(j, "add_worklog", "Add a worklog entry to a Jira issue.",
			key, "time_spent: Time spent in Jira format (e.g., '1h 30m', '1d', '30m')", "comment: Optional comment for the worklog in Markdown format",
			"started: Start time in ISO format"),
		tool(j, "get_sprints_from_board", "Get Jira sprints from a board by state.",
			"board_id: The ID of the board", "state: Sprint state (e.g., 'active', 'future', 'closed')"),
	)
}

func calendarTools() []Doc {
	c := "calendar"
	cal := "calendarId: ID of the calendar (use 'primary' for the main calendar)"
	tz := "timeZone: Timezone as IANA Time Zone Database name (e.g., America/Los_Angeles)"
	return []Doc{
		tool(c, "list_calendars", "List all available calendars"),
		tool(c, "list_events", "List events from one or more calendars.",
			cal, "timeMin: Start time boundary. Preferred: '2024-01-01T00:00:00' (uses timeZone parameter or calendar timezone).",
			"timeMax: End time boundary.", tz),
		tool(c, "search_events", "Search for events in a calendar by text query.",
			cal, "query: Free text search query (searches summary, description, location, attendees, etc.)",
			"timeMin: Start time boundary", "timeMax: End time boundary"),
		tool(c, "create_event", "Create a new calendar event.",
			cal, "summary: Title of the event", "description: Description/notes for the event",
			"start: Event start time: '2024-01-01T10:00:00'", "end: Event end time: '2024-01-01T11:00:00'", tz,
			"location: Location of the event", "attendees: List of attendee email addresses",
			"reminders: Reminder settings for the event", "recurrence: Recurrence rules in RFC5545 format"),
		tool(c, "update_event", "Update an existing calendar event with recurring event modification scope support.",
			cal, "eventId: ID of the event to update", "summary: Updated title of the event", "start: Updated start time",
			"end: Updated end time", "attendees: Updated list of attendee email addresses",
			"modificationScope: Scope for recurring event modifications"),
		tool(c, "delete_event", "Delete a calendar event.",
			cal, "eventId: ID of the event to delete", "sendUpdates: Whether to send cancellation notifications"),
		tool(c, "get_freebusy", "Query free/busy information for calendars. Note: Time range is limited to a maximum of 3 months between timeMin and timeMax.",
			"calendars: List of calendars and/or groups to query for free/busy information",
			"timeMin: The start of the interval for the query", "timeMax: The end of the interval for the query", tz),
		tool(c, "list_colors", "List available color IDs and their meanings for calendar events"),
	}
}

func postgresTools() []Doc {
	p := "postgres"
	schema := "schema: Schema name (default 'public')"
	return []Doc{
		tool(p, "query", "Run a read-only SQL query", "sql: The SQL query to run"),
		tool(p, "execute_sql", "Execute any SQL statement, including INSERT, UPDATE, DELETE and DDL. Runs in a transaction.",
			"sql: The SQL statement to execute"),
		tool(p, "list_schemas", "List all schemas in the database"),
		tool(p, "list_tables", "List the tables in a database schema", schema),
		tool(p, "describe_table", "Show the columns of a table with their data types, nullability, defaults and constraints",
			schema, "table: Table name"),
		tool(p, "explain_query", "Show the execution plan PostgreSQL chooses for a query, optionally with actual run times (EXPLAIN ANALYZE)",
			"sql: The query to explain", "analyze: Run the query and report actual timings"),
	}
}
