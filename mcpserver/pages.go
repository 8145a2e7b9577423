package mcpserver

import "net/http"

// servePage serves the handler's own pages; false: no page at this path.
func (h *httpHandler) servePage(w http.ResponseWriter, r *http.Request) bool { return false }
