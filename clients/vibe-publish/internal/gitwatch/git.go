package gitwatch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// repo runs git in one working tree. Without git (or outside a repository) every file
// counts as untracked and nothing is ignored but .git itself.
type repo struct {
	root  string
	isGit bool
}

func openRepo(ctx context.Context, dir string) (*repo, error) {
	out, err := exec.CommandContext(ctx, "git", "-C", dir, "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return &repo{root: dir}, nil
	}
	return &repo{root: strings.TrimSpace(string(out)), isGit: true}, nil
}

func (r *repo) git(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", r.root}, args...)...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// ignored returns the subset of rel paths that .gitignore (and friends) exclude.
func (r *repo) ignored(ctx context.Context, rels []string) (map[string]bool, error) {
	out := map[string]bool{}
	if !r.isGit || len(rels) == 0 {
		return out, nil
	}
	in := []byte(strings.Join(rels, "\x00") + "\x00")
	res, err := r.git(ctx, in, "check-ignore", "--stdin", "-z")
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) { // 1: none ignored
		return nil, err
	}
	for _, p := range strings.Split(string(res), "\x00") {
		if p != "" {
			out[p] = true
		}
	}
	return out, nil
}

// ignoredDirs lists the ignored directories (relative, with a trailing slash) so the
// watcher does not descend into them (node_modules, build output).
func (r *repo) ignoredDirs(ctx context.Context) (map[string]bool, error) {
	out := map[string]bool{}
	if !r.isGit {
		return out, nil
	}
	res, err := r.git(ctx, nil, "ls-files", "--others", "--ignored", "--exclude-standard", "--directory", "-z")
	if err != nil {
		return nil, err
	}
	for _, p := range strings.Split(string(res), "\x00") {
		if strings.HasSuffix(p, "/") {
			out[p] = true
		}
	}
	return out, nil
}

// tracked reports whether git tracks rel.
func (r *repo) tracked(ctx context.Context, rel string) bool {
	if !r.isGit {
		return false
	}
	_, err := r.git(ctx, nil, "ls-files", "--error-unmatch", "--", rel)
	return err == nil
}

// numstat returns the lines added and deleted in rel's working copy against HEAD (against
// the index when the repository has no commit yet). Binary files count 0.
func (r *repo) numstat(ctx context.Context, rel string) (added, deleted int, err error) {
	res, err := r.git(ctx, nil, "diff", "--numstat", "HEAD", "--", rel)
	if err != nil {
		if res, err = r.git(ctx, nil, "diff", "--numstat", "--", rel); err != nil {
			return 0, 0, err
		}
	}
	for _, ln := range strings.Split(string(res), "\n") {
		f := strings.SplitN(ln, "\t", 3)
		if len(f) < 3 {
			continue
		}
		a, _ := strconv.Atoi(f[0]) // "-" for binary files: 0
		d, _ := strconv.Atoi(f[1])
		added, deleted = added+a, deleted+d
	}
	return added, deleted, nil
}
