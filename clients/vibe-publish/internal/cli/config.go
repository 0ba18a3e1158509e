package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Environment variables, read when the matching flag is not given.
const (
	EnvServer          = "VIBE_PUBLISH_SERVER"
	EnvToken           = "VIBE_PUBLISH_TOKEN"
	EnvTokenFile       = "VIBE_PUBLISH_TOKEN_FILE"
	EnvSlot            = "VIBE_PUBLISH_SLOT"
	EnvManagedStreamID = "VIBE_PUBLISH_MANAGED_STREAM_ID"
	EnvConfig          = "VIBE_PUBLISH_CONFIG"
)

// fileConfig is ~/.config/vibe-publish/config.json.
type fileConfig struct {
	Server          string `json:"server"`
	Token           string `json:"token"`
	TokenFile       string `json:"tokenFile"`
	Slot            string `json:"slot"`
	ManagedStreamID int64  `json:"managedStreamId"`
}

// settings is the resolved connection configuration.
type settings struct {
	Server          string
	Token           string
	Slot            string // id or slug as given
	ManagedStreamID int64
	SlotSlug        string
	ConfigPath      string
	warnings        []string
}

// defaultConfigPath is $XDG_CONFIG_HOME/vibe-publish/config.json or
// ~/.config/vibe-publish/config.json.
func defaultConfigPath(getenv func(string) string) string {
	base := getenv("XDG_CONFIG_HOME")
	if base == "" {
		home := getenv("HOME")
		if home == "" {
			h, err := os.UserHomeDir()
			if err != nil {
				return ""
			}
			home = h
		}
		base = filepath.Join(home, ".config")
	}
	return filepath.Join(base, "vibe-publish", "config.json")
}

// resolve merges flags over environment over the config file.
func resolve(fl globalFlags, getenv func(string) string) (settings, error) {
	var s settings
	path, explicit := fl.config, fl.config != ""
	if !explicit {
		if path = getenv(EnvConfig); path != "" {
			explicit = true
		} else {
			path = defaultConfigPath(getenv)
		}
	}
	var fc fileConfig
	if path != "" {
		data, err := os.ReadFile(path)
		switch {
		case err == nil:
			if err := json.Unmarshal(data, &fc); err != nil {
				return s, fmt.Errorf("config file %s: %w", path, err)
			}
			s.ConfigPath = path
			if info, err := os.Stat(path); err == nil && fc.Token != "" && info.Mode().Perm()&0o077 != 0 {
				s.warnings = append(s.warnings, fmt.Sprintf("%s holds a token and is readable by others: chmod 600 %s", path, path))
			}
		case errors.Is(err, fs.ErrNotExist) && !explicit:
		default:
			return s, fmt.Errorf("config file: %w", err)
		}
	}
	s.Server = first(fl.server, getenv(EnvServer), fc.Server)
	tokenFile := first(getenv(EnvTokenFile), fc.TokenFile)
	s.Token = first(fl.token, getenv(EnvToken), fc.Token)
	if s.Token == "" && tokenFile != "" {
		data, err := os.ReadFile(tokenFile)
		if err != nil {
			return s, fmt.Errorf("token file: %w", err)
		}
		s.Token = strings.TrimSpace(string(data))
	}
	s.Slot = first(fl.slot, getenv(EnvSlot), fc.Slot)
	idText := first(fl.managedStreamID, getenv(EnvManagedStreamID))
	if idText == "" && fc.ManagedStreamID > 0 {
		idText = strconv.FormatInt(fc.ManagedStreamID, 10)
	}
	if idText != "" {
		id, err := strconv.ParseInt(idText, 10, 64)
		if err != nil || id <= 0 {
			return s, fmt.Errorf("managed stream id %q must be a positive number", idText)
		}
		s.ManagedStreamID = id
	}
	if s.Slot != "" {
		if id, err := strconv.ParseInt(s.Slot, 10, 64); err == nil && id > 0 {
			if s.ManagedStreamID != 0 && s.ManagedStreamID != id {
				return s, fmt.Errorf("--slot %s and --managed-stream-id %d disagree", s.Slot, s.ManagedStreamID)
			}
			s.ManagedStreamID = id
		} else {
			s.SlotSlug = s.Slot
		}
	}
	return s, nil
}

// validateLive lists what a live run is missing, all at once.
func (s settings) validateLive() error {
	var errs []error
	if s.Server == "" {
		errs = append(errs, fmt.Errorf("no server: pass --server URL or set %s", EnvServer))
	}
	if s.Token == "" {
		errs = append(errs, fmt.Errorf("no token: pass --token hbt_… or set %s (create one with the vibe_coding_publish scope)", EnvToken))
	}
	if s.Slot == "" && s.ManagedStreamID == 0 {
		errs = append(errs, fmt.Errorf("no slot: pass --slot ID|SLUG or set %s", EnvSlot))
	}
	return errors.Join(errs...)
}

func first(vals ...string) string {
	for _, v := range vals {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}
