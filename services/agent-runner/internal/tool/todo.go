package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"openvibe.live/backend/services/agent-runner/internal/store"
)

// TodoItem is one entry the model writes.
type TodoItem struct {
	ID       string `json:"id" jsonschema_description:"Stable identifier of the item"`
	Content  string `json:"content" jsonschema_description:"What to do"`
	Status   string `json:"status" jsonschema:"enum=pending,enum=in_progress,enum=completed,enum=cancelled"`
	Priority string `json:"priority,omitempty" jsonschema:"enum=high,enum=medium,enum=low"`
}

// TodoWriteParams are the todo_write tool's parameters.
type TodoWriteParams struct {
	Todos []TodoItem `json:"todos" jsonschema_description:"The complete updated todo list"`
}

// TodoWrite returns the todo_write tool.
func TodoWrite() Tool {
	return New(Def[TodoWriteParams]{
		Name:        "todo_write",
		Description: "Replace the session's todo list. Use it to plan multi-step work and mark progress.",
		Kind:        KindRead, // it only touches the session's own state
		Run: func(ctx context.Context, tc *Context, p TodoWriteParams) (Result, error) {
			todos := make([]store.Todo, 0, len(p.Todos))
			for i, t := range p.Todos {
				switch t.Status {
				case "pending", "in_progress", "completed", "cancelled":
				default:
					return Result{}, Errorf("todos[%d].status %q: want pending, in_progress, completed or cancelled", i, t.Status)
				}
				if t.ID == "" {
					t.ID = fmt.Sprint(i + 1)
				}
				todos = append(todos, store.Todo(t))
			}
			if err := tc.Todos.SetTodos(ctx, tc.SessionID, todos); err != nil {
				return Result{}, err
			}
			return Result{Title: fmt.Sprintf("%d todos", open(todos)), Output: formatTodos(todos),
				Metadata: map[string]any{"todos": todos}}, nil
		},
	})
}

// TodoReadParams is empty.
type TodoReadParams struct{}

// TodoRead returns the todo_read tool.
func TodoRead() Tool {
	return New(Def[TodoReadParams]{
		Name:        "todo_read",
		Description: "Read the session's todo list.",
		Kind:        KindRead,
		Run: func(ctx context.Context, tc *Context, _ TodoReadParams) (Result, error) {
			todos, err := tc.Todos.GetTodos(ctx, tc.SessionID)
			if err != nil {
				return Result{}, err
			}
			return Result{Title: fmt.Sprintf("%d todos", open(todos)), Output: formatTodos(todos)}, nil
		},
	})
}

func open(todos []store.Todo) int {
	n := 0
	for _, t := range todos {
		if t.Status != "completed" && t.Status != "cancelled" {
			n++
		}
	}
	return n
}

func formatTodos(todos []store.Todo) string {
	if len(todos) == 0 {
		return "The todo list is empty."
	}
	b, _ := json.MarshalIndent(todos, "", "  ")
	return strings.TrimSpace(string(b))
}
