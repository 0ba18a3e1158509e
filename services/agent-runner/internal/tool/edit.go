package tool

import (
	"context"
	"fmt"
	"os"
	"strings"
)

// EditParams are the edit tool's parameters.
type EditParams struct {
	FilePath   string `json:"file_path" jsonschema_description:"Path of the file to edit"`
	OldString  string `json:"old_string" jsonschema_description:"Exact text to replace (copy it from read output without the line-number prefix)"`
	NewString  string `json:"new_string" jsonschema_description:"Replacement text"`
	ReplaceAll bool   `json:"replace_all,omitempty" jsonschema_description:"Replace every occurrence instead of requiring a unique match"`
}

// Edit returns the edit tool.
func Edit() Tool {
	return New(Def[EditParams]{
		Name: "edit",
		Description: "Replace exact text in a file. old_string must match the file exactly (whitespace included) " +
			"and be unique unless replace_all is set. The file must have been read first. When the match fails, " +
			"the error shows the closest text in the file and where it differs.",
		Kind: KindWrite,
		Perm: func(tc *Context, p EditParams) Perm { return pathPerm(tc, p.FilePath, "Edit") },
		Run:  runEdit,
	})
}

func runEdit(ctx context.Context, tc *Context, p EditParams) (Result, error) {
	path, err := tc.Resolve(ctx, p.FilePath)
	if err != nil {
		return Result{}, err
	}
	if p.OldString == p.NewString {
		return Result{}, Errorf("old_string and new_string are identical; nothing to change")
	}
	if p.OldString == "" {
		if _, err := os.Stat(path); err == nil {
			return Result{}, Errorf("old_string is empty but %s exists; give the text to replace, or use write to replace the whole file", path)
		}
		if err := writeFile(path, []byte(p.NewString)); err != nil {
			return Result{}, err
		}
		tc.Files.Record(tc.SessionID, path)
		return Result{Title: tc.Rel(path), Output: "Created " + path + "."}, nil
	}
	if _, err := Ensure(path); err != nil {
		return Result{}, err
	}
	if err := tc.Files.Check(tc.SessionID, path); err != nil {
		return Result{}, err
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return Result{}, fmt.Errorf("read %s: %w", path, err)
	}
	content := string(raw)
	oldS, newS := p.OldString, p.NewString
	if strings.Contains(content, "\r\n") && !strings.Contains(oldS, "\r\n") {
		oldS = strings.ReplaceAll(oldS, "\n", "\r\n")
		newS = strings.ReplaceAll(newS, "\n", "\r\n")
	}
	n := strings.Count(content, oldS)
	switch {
	case n == 0:
		return Result{}, Errorf("%s", explainMiss(path, content, oldS))
	case n > 1 && !p.ReplaceAll:
		return Result{}, Errorf("old_string occurs %d times in %s (at lines %s); include more surrounding lines to make it unique, or set replace_all to change every occurrence",
			n, path, joinInts(matchLines(content, oldS)))
	}
	first := strings.Index(content, oldS)
	var updated string
	if p.ReplaceAll {
		updated = strings.ReplaceAll(content, oldS, newS)
	} else {
		updated = content[:first] + newS + content[first+len(oldS):]
	}
	if err := writeFile(path, []byte(updated)); err != nil {
		return Result{}, err
	}
	tc.Files.Record(tc.SessionID, path)
	line := strings.Count(content[:first], "\n") + 1
	out := fmt.Sprintf("Edited %s: replaced %d occurrence(s). The changed region now reads:\n%s", path, n,
		snippet(updated, line, strings.Count(newS, "\n")+1))
	return Result{Title: tc.Rel(path), Output: out,
		Metadata: map[string]any{"replacements": n, "line": line}}, nil
}

func matchLines(content, s string) []int {
	var lines []int
	off := 0
	for {
		i := strings.Index(content[off:], s)
		if i < 0 || len(lines) >= 20 {
			return lines
		}
		lines = append(lines, strings.Count(content[:off+i], "\n")+1)
		off += i + max(len(s), 1)
	}
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}

// snippet returns lines [line-2, line+n+1] of content, numbered like read output.
func snippet(content string, line, n int) string {
	lines := strings.Split(content, "\n")
	from, to := max(line-3, 0), min(line+n+1, len(lines))
	if to-from > 40 {
		to = from + 40
	}
	var b strings.Builder
	for i := from; i < to; i++ {
		fmt.Fprintf(&b, "%6d\t%s\n", i+1, strings.TrimRight(lines[i], "\r"))
	}
	return b.String()
}

// explainMiss tells the model why old_string was not found: where the closest text is and
// the first line that differs, with whitespace made visible when that is the difference.
func explainMiss(path, content, old string) string {
	fileLines := strings.Split(strings.ReplaceAll(content, "\r\n", "\n"), "\n")
	oldLines := strings.Split(strings.ReplaceAll(old, "\r\n", "\n"), "\n")
	start, score := closestWindow(fileLines, oldLines)
	var b strings.Builder
	fmt.Fprintf(&b, "old_string was not found in %s.", path)
	if start < 0 || score < 0.3 {
		b.WriteString(" No similar text exists in the file; read the file again and copy the exact text to replace.")
		return b.String()
	}
	end := min(start+len(oldLines), len(fileLines))
	fmt.Fprintf(&b, " The closest text is at lines %d-%d:\n", start+1, end)
	for i := start; i < end; i++ {
		fmt.Fprintf(&b, "%6d\t%s\n", i+1, fileLines[i])
	}
	for j, want := range oldLines {
		if start+j >= len(fileLines) {
			fmt.Fprintf(&b, "Your old_string has %d lines but the file ends after line %d.", len(oldLines), len(fileLines))
			break
		}
		got := fileLines[start+j]
		if got == want {
			continue
		}
		fmt.Fprintf(&b, "First difference at line %d:\n  old_string: %s\n  file:       %s\n", start+j+1, visible(want), visible(got))
		if strings.TrimSpace(got) == strings.TrimSpace(want) {
			b.WriteString("The lines differ only in whitespace (indentation or trailing spaces); match the file's whitespace exactly (→ is a tab, · a space).")
		} else {
			b.WriteString("Copy the text exactly as the file has it (without the line-number prefix) and retry.")
		}
		break
	}
	return b.String()
}

// visible quotes a line showing tabs as → and spaces at the ends as ·.
func visible(s string) string {
	s = strings.ReplaceAll(s, "\t", "→")
	trimmedLeft := strings.TrimLeft(s, " ")
	s = strings.Repeat("·", len(s)-len(trimmedLeft)) + trimmedLeft
	trimmedRight := strings.TrimRight(s, " ")
	return fmt.Sprintf("%q", trimmedRight+strings.Repeat("·", len(s)-len(trimmedRight)))
}

// closestWindow finds the run of len(old) file lines most similar to old.
func closestWindow(file, old []string) (int, float64) {
	best, bestScore := -1, 0.0
	limit := len(file) - len(old) + 1
	if limit < 1 {
		limit = 1
	}
	cmpLines := len(old)
	if len(file)*len(old) > 2_000_000 { // huge file: compare first lines only
		cmpLines = 1
	}
	for i := 0; i < limit && i < len(file); i++ {
		s := 0.0
		for j := 0; j < cmpLines && i+j < len(file); j++ {
			s += similarity(strings.TrimSpace(file[i+j]), strings.TrimSpace(old[j]))
		}
		s /= float64(cmpLines)
		if s > bestScore {
			best, bestScore = i, s
		}
	}
	return best, bestScore
}

// similarity is the Dice coefficient of character bigrams (1 for equal strings).
func similarity(a, b string) float64 {
	if a == b {
		return 1
	}
	if len(a) < 2 || len(b) < 2 {
		return 0
	}
	grams := map[string]int{}
	for i := 0; i+2 <= len(a); i++ {
		grams[a[i:i+2]]++
	}
	common := 0
	for i := 0; i+2 <= len(b); i++ {
		if grams[b[i:i+2]] > 0 {
			grams[b[i:i+2]]--
			common++
		}
	}
	return 2 * float64(common) / float64(len(a)-1+len(b)-1)
}
