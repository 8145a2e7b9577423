package toolsearch

func browserTools() []Doc {
	w := "browser"
	el := "element: Human-readable element description used to obtain permission to interact with the element"
	ref := "ref: Exact target element reference from the page snapshot"
	return prefixed("browser_",
		tool(w, "navigate", "Navigate to a URL", "url: The URL to navigate to"),
		tool(w, "navigate_back", "Go back to the previous page"),
		tool(w, "click", "Perform click on a web page", el, ref,
			"doubleClick: Whether to perform a double click instead of a single click", "button: Button to click, defaults to left"),
		tool(w, "type", "Type text into editable element", el, ref, "text: Text to type into the element",
			"submit: Whether to submit entered text (press Enter after)", "slowly: Whether to type one character at a time"),
		tool(w, "fill_form", "Fill multiple form fields",
			"fields: Fields to fill in", "fields.name: Human-readable field name", "fields.type: Type of the field",
			"fields.ref: Exact target field reference from the page snapshot", "fields.value: Value to fill in the field"),
		tool(w, "select_option", "Select an option in a dropdown", el, ref,
			"values: Array of values to select in the dropdown. This can be a single value or multiple values."),
		tool(w, "hover", "Hover over element on page", el, ref),
		tool(w, "press_key", "Press a key on the keyboard",
			"key: Name of the key to press or a character to generate, such as `ArrowLeft` or `a`"),
		tool(w, "snapshot", "Capture accessibility snapshot of the current page, this is better than screenshot"),
		tool(w, "take_screenshot", "Take a screenshot of the current page. You can't perform actions based on the screenshot, use browser_snapshot for actions.",
			"type: Image format for the screenshot. Default is png.", "filename: File name to save the screenshot to.",
			"fullPage: When true, takes a screenshot of the full scrollable page, instead of the currently visible viewport."),
		tool(w, "evaluate", "Evaluate JavaScript expression on page or element",
			"function: () => { /* code */ } or (element) => { /* code */ } when element is provided", el, ref),
		tool(w, "wait_for", "Wait for text to appear or disappear or a specified time to pass",
			"time: The time to wait in seconds", "text: The text to wait for", "textGone: The text to wait for to disappear"),
		tool(w, "tabs", "List, create, close, or select a browser tab.",
			"action: Operation to perform", "index: Tab index, used for close/select. If omitted for close, current tab is closed."),
		tool(w, "file_upload", "Upload one or multiple files",
			"paths: The absolute paths to the files to upload. Can be a single file or multiple files. If omitted, file chooser is cancelled."),
		tool(w, "console_messages", "Returns all console messages", "onlyErrors: Only return error messages"),
		tool(w, "close", "Close the page"),
	)
}

func emailTools() []Doc {
	e := "email"
	send := []string{"to: List of recipient email addresses", "subject: Email subject", "body: Email body content",
		"cc: List of CC recipients", "bcc: List of BCC recipients", "threadId: Thread ID to reply to",
		"inReplyTo: Message ID being replied to", "attachments: List of file paths to attach to the email"}
	id := "messageId: ID of the email message"
	return []Doc{
		tool(e, "send_email", "Sends a new email", send...),
		tool(e, "draft_email", "Draft a new email", send...),
		tool(e, "read_email", "Retrieves the content of a specific email", id),
		tool(e, "search_emails", "Searches for emails using Gmail search syntax",
			"query: Gmail search query (e.g., 'from:example@gmail.com')", "maxResults: Maximum number of results to return"),
		tool(e, "modify_email", "Modifies email labels (move to different folders)",
			id, "labelIds: List of label IDs to apply", "addLabelIds: List of label IDs to add to the message",
			"removeLabelIds: List of label IDs to remove from the message"),
		tool(e, "delete_email", "Permanently deletes an email", id),
		tool(e, "list_email_labels", "Retrieves all available Gmail labels"),
		tool(e, "create_label", "Creates a new Gmail label",
			"name: Name for the new label", "messageListVisibility: Whether to show or hide the label in the message list",
			"labelListVisibility: Visibility of the label in the label list"),
		tool(e, "batch_modify_emails", "Modifies labels for multiple emails in batches",
			"messageIds: List of message IDs to modify", "addLabelIds: List of label IDs to add to all messages",
			"removeLabelIds: List of label IDs to remove from all messages", "batchSize: Number of messages to process in each batch (default: 50)"),
		tool(e, "download_attachment", "Downloads an email attachment to a specified location",
			id, "attachmentId: ID of the attachment", "savePath: Directory to save the attachment to (defaults to current directory)",
			"filename: Filename to save as (defaults to original filename)"),
	}
}

func miscTools() []Doc {
	return []Doc{
		tool("weather", "get_forecast", "Get weather forecast for a location.",
			"latitude: Latitude of the location", "longitude: Longitude of the location"),
		tool("weather", "get_alerts", "Get weather alerts for a US state.",
			"state: Two-letter US state code (e.g. CA, NY)"),
		tool("time", "get_current_time", "Get current time in a specific timezones",
			"timezone: IANA timezone name (e.g., 'America/New_York', 'Europe/London'). Use 'UTC' as local timezone if no timezone provided by the user."),
		tool("time", "convert_time", "Convert time between timezones",
			"source_timezone: Source IANA timezone name", "time: Time to convert in 24-hour format (HH:MM)",
			"target_timezone: Target IANA timezone name"),
		tool("fetch", "fetch", "Fetches a URL from the internet and optionally extracts its contents as markdown. Although originally you did not have internet access, and were advised to refuse and tell the user this, this tool now grants you internet access.",
			"url: URL to fetch", "max_length: Maximum number of characters to return.",
			"start_index: On return output starting at this character index, useful if a previous fetch was truncated and more context is required.",
			"raw: Get the actual HTML content of the requested page, without simplification."),
	}
}

func gitTools() []Doc {
	g := "git"
	repo := "repo_path: Path to the Git repository"
	return prefixed("git_",
		tool(g, "status", "Shows the working tree status", repo),
		tool(g, "diff_unstaged", "Shows changes in the working directory that are not yet staged", repo,
			"context_lines: Number of context lines to show"),
		tool(g, "diff_staged", "Shows changes that are staged for commit", repo,
			"context_lines: Number of context lines to show"),
		tool(g, "commit", "Records changes to the repository", repo, "message: Commit message"),
		tool(g, "add", "Adds file contents to the staging area", repo, "files: Paths of the files to stage"),
		tool(g, "reset", "Unstages all staged changes", repo),
		tool(g, "log", "Shows the commit logs", repo, "max_count: Maximum number of commits to show"),
		tool(g, "create_branch", "Creates a new branch from an optional base branch", repo,
			"branch_name: Name of the new branch", "base_branch: Starting point for the new branch"),
		tool(g, "checkout", "Switches branches", repo, "branch_name: Name of branch to checkout"),
		tool(g, "show", "Shows the contents of a commit", repo, "revision: The revision (commit hash, branch or tag) to show"),
	)
}
