package store

import (
	"context"
	"database/sql"
	"fmt"
)

// InTx runs fn in a database/sql transaction on db, committed if fn returns nil and rolled
// back otherwise. fn's error is returned as it is; begin and commit failures are wrapped.
func InTx(ctx context.Context, db *sql.DB, fn func(tx *sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}
