package vibe

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The kept rows quote single lines of scripts that Debian 12 ships, each under its package's
// licence (the package's /usr/share/doc/<package>/copyright): zsh-common 5.9 (Zsh licence,
// MIT-like), lxc-templates (LGPL-2+), ecryptfs-utils, dracut-core, kdump-tools and
// cryptsetup-initramfs (GPL-2+), debootstrap (MIT), systemd's kernel-install and
// libnss-systemd's maintainer script (LGPL-2.1+), ansible-core's test bootstrap (GPL-3+),
// fzf's examples and dehydrated (MIT), grub-common's and pass's bash completions (GPL-3+,
// GPL-2+), cargo's (MIT or Apache-2.0) and ceph-common's (LGPL-2.1). The rows of secrets
// are made up.

func TestZshCompletionSpecs(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"  '--ftp-pass[specify FTP password]:password' \\\n  '--ftp-port[specify FTP port]:port [21]:_ports' \\",
			"  '--dropbox-client-id[specify Dropbox app client ID]:client ID' \\\n  '--dropbox-client-secret[specify Dropbox app client secret]:secret' \\\n  '--dropbox-impersonate[impersonate specified user]:user' \\",
			"    '-password[specify password]:password'\n    '-attach[attach to running VM]:address'",
			"  '-s+[specify secret key file]:secret key:_files' \\\n  '-x+[specify signature file]:signature file:_files' \\",
			"  '(-w --password)'{-w,--password=}'[password]:password' \\",
			"      '(-D -U -L -p --password)'{-p+,--password=}'[specify encrypted password]:encrypted password'",
			"  -{,-}'password=:password:' \\\n  '--arguments=:ghostscript arguments:' \\",
			`      _arguments -C "1:password" "*::arg:->args"`,
			"          _message -e passwords 'proxy password' &&",
			"      _wanted users expl 'login name' _combination -s '[:@]' my-accounts users-hosts users -S '' && ret=0",
			"    imap.pass:'password git imap-send should use when logging in:password:->string'",
			"  '(-ap --auth-password)'{-ap,--auth-password=}'[provide the password to be used for authentication]::password' \\",
			"#'-fdisable--pass=-[disables an optimization pass]:range1+range2: '",
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{`mysql --password='S3cr3t!pw' -u root`, "S3cr3t!pw"},
			{`mysql '--password=S3cr3t!pw' -u root`, "S3cr3t!pw"},
			{`curl -u 'admin:S3cr3tpw' https://example.com/api`, "S3cr3tpw"},
			{`rclone config create ftp1 ftp --ftp-pass 'Xk9#mQ2vLp7w'`, "Xk9#mQ2vLp7w"},
			{`imap.pass:'Xk9#mQ2vLp7w'`, "Xk9#mQ2vLp7w"},
			{`[DEBUG] toggl client: using API_KEY=0ao172yw8anA6kty2viAss8k8iA7fzdg`, "0ao172yw8anA6kty2viAss8k8iA7fzdg"},
			{`{"content": "[DEBUG] client: using API_KEY=0ao172yw8anA6kty2viAss8k8iA7fzdg"}`, "0ao172yw8anA6kty2viAss8k8iA7fzdg"},
			{"[INFO] login: password=Xk9mQ2vLp7wR:ok", "Xk9mQ2vLp7wR"},
			{`git config --global sendemail.smtppass 'Xk9mQ2vLp7wR'`, "Xk9mQ2vLp7wR"},
			{`export GITHUB_TOKEN=ghp_aBcD1234eFgH5678iJkL9012mNoP3456qRsT`, "ghp_aBcD1234eFgH5678iJkL9012mNoP3456qRsT"},
			{`  '--token=ghp_aBcD1234eFgH5678iJkL9012mNoP3456qRsT' \`, "ghp_aBcD1234eFgH5678iJkL9012mNoP3456qRsT"},
			{`PASSWORD='hunter2!x9'`, "hunter2!x9"},
			{"export RELEASE_PASSWORD=`Tz4pWq9mKc`", "Tz4pWq9mKc"}, // a backquoted word no command is named
			{"export RELEASE_TOKEN=`vqzkxwjrtb`", "vqzkxwjrtb"},
		})
	})
	t.Run("shape", func(t *testing.T) {
		require.True(t, zshSpec("-p+[specify password]:password:", 0, 0))
		require.True(t, zshSpec("1:password", 0, 0))
		require.True(t, zshSpec("*::arg:->args", 0, 0))
		require.False(t, zshSpec("--password=S3cr3t!pw", 0, 0), "a flag with its value opens no description")
		require.False(t, zshSpec("1:S3cr3tpw", 0, 0), "a message is words")
		require.False(t, zshSpec("admin:S3cr3tpw", 0, 0))
	})
}

func TestShellValues(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"\t\tLOGINPASS=`head -n1`",
			`TOKEN_FILE="$STATE_DIR/api-token"`,
			`API_TOKEN_CACHE="${XDG_CACHE_HOME}_tokens"`,
			`DB_PASSWORD="$DB_USER:changeme"`,
			"\t\t\tMOUNTPASS=`random_passphrase $KEYBYTES`",
			"export RELEASE_PASSWORD=`pwgen`",
			"RELEASE_PASSWORD=`Xvfb`",
			`	ssh-copy-id -i "$KDUMP_SSH_KEY" "$KDUMP_SSH_USER@$KDUMP_SSH_TARGET" >/dev/null 2>&1`,
			`    [ -n "$IMAGE_ID" ] && ENTRY_TOKEN_SEARCH="$ENTRY_TOKEN_SEARCH $IMAGE_ID"`,
			`    ENTRY_TOKEN_SEARCH="$ENTRY_TOKEN_SEARCH Default"`,
			`                    _CRYPTTAB_KEY="/FIXME-initramfs-rootmnt$_CRYPTTAB_KEY" # preserve mangled name`,
			`			PRIVATEKEY="--private-key=$2"`,
			`        echo "root:$root_password" | chroot $rootfs_path chpasswd`,
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{`PASSWORD='hunter2!x9'`, "hunter2!x9"},
			{"export RELEASE_PASSWORD=`Tz4pWq9mKc`", "Tz4pWq9mKc"}, // a backquoted word no command is named
			{"export RELEASE_TOKEN=`vqzkxwjrtb`", "vqzkxwjrtb"},
			{`PASSWORD="hunter2$x9"`, "hunter2"},
			{`DB_PASS="Tr0ub4dor&3$SUFFIX"`, "Tr0ub4dor&3"},
			{`API_TOKEN="S3cr3tValue9$SUFFIX"`, "S3cr3tValue9"},
			{`DB_PASSWORD="Xk9mQ2vLp7wR@$HOST"`, "Xk9mQ2vLp7wR"},
			{`DB_PASSWORD="$DB_USER:Xk9mQ2vLp7wR"`, "Xk9mQ2vLp7wR"},
			{`export DB_PASSWORD="${DB_USER}Xk9mQ2vLp7wR"`, "Xk9mQ2vLp7wR"},
			{`API_TOKEN="$PREFIX-S3cr3tValue9"`, "S3cr3tValue9"},
			{`password: "$user-S3cr3tValue9"`, "S3cr3tValue9"},
			{"func main() {\n\tpassword := \"f{z($g8Heax1fEG$q9\"\n\trun(password)\n}\n", "g8Heax1fEG"},
			{"func main() {\n\tpwd := \"hiD$MO?1=3/p7h1VjL\"\n\trun(pwd)\n}\n", "p7h1VjL"},
			{`dataSource.setToken("bvVW9Yu]6r~3@NQK$B");`, "bvVW9Yu"},
			{`PASSWORD="/p7h1VjL$AB"`, "p7h1VjL"},
			{"resource \"aws_db_instance\" \"main\" {\n  username = \"admin\"\n  sas_token = \"Zr$4BJN,+IjdJ$tj94\"\n}\n", "IjdJ"},
			{`SAS_TOKEN="Zr$4BJN,IjdJ$tj94"`, "IjdJ"},
			{"jobs:\n  deploy:\n    env:\n      PASSWD: Summer2024!\n", "Summer2024!"},
			{"deploy ALL=(ALL) PASSWD: Xk9mQ2vLp7wR", "Xk9mQ2vLp7wR"},
			{`PASSWORD='abc$defGh1'`, "abc$defGh1"},
			{"PASSWORD=`echo hunter2x9`", "hunter2x9"},
			{"PASSWORD=`printf S3cr3tpw`", "S3cr3tpw"},
			{`echo "root:S3cr3tpw" | chpasswd`, "S3cr3tpw"},
			{`echo 'root:Xk9mQ2vLp7' | chpasswd`, "Xk9mQ2vLp7"},
			{`export GITHUB_TOKEN=ghp_aBcD1234eFgH5678iJkL9012mNoP3456qRsT`, "ghp_aBcD1234eFgH5678iJkL9012mNoP3456qRsT"},
		})
	})
	t.Run("shape", func(t *testing.T) {
		require.True(t, expandedFrame("$HOME/.ssh2/$pm_k"), "a path frame")
		require.True(t, expandedFrame("${1#--private-key=}"))
		require.False(t, expandedFrame("correcthorsebattery$n"), "no English word, no path")
		require.False(t, expandedFrame("plain"), "no expansion")
		require.True(t, commandText("head -n1"))
		require.False(t, commandText("echo hunter2"))
		require.True(t, wholeExpansion("$root_password"))
		require.False(t, wholeExpansion("$x-S3cr3t"))
	})
}

func TestShellFlagsAndTables(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"      --private-key=file     read the private key from file",
			"   -S | --auth-key K  insert auth key 'K'",
			"  -S, --auth-key=KEYFILE SSH public key to inject into the container as the root user.",
			"  -r,--root_password  set container root password",
			"\t    --private-key|--private-key=?*)",
			`		elif [ "$1" != "${1#--private-key=}" ]; then`,
			`    opts="$opts --logger-file /dev/null --batch --no-tty --passphrase-fd 0"`,
			`    local long_opts="arch:,auth-key:,name:,path:,tarball:,userdata:,verbose,version:,rootfs:,mapped-uid:,mapped-gid:"`,
			`options=$(getopt -o hp:n:a:r:cI:FS: -l arch:,auth-key:,clean,help,enable-non-free,mirror:,keyring:,name:,packages:,path:,release:,rootfs:,security-mirror:,interpreter-path:,flush-cache -- "$@")`,
			"    echo '%wheel ALL=(ALL:ALL) NOPASSWD: ALL' > /usr/local/etc/sudoers.d/ansible-test",
			`RUN echo 'deploy ALL=(ALL) NOPASSWD:ALL' >> /etc/sudoers`,
			"cat > /etc/passwd <<'EOF'\ndaemon:*:1:1:daemon:/usr/sbin:/usr/sbin/nologin\nsync:*:4:65534:sync:/bin:/bin/sync\nnobody:*:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\nEOF",
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{"docker login \\\n  --username admin \\\n  --password S3cr3tpw9 \\\n  registry.example.com", "S3cr3tpw9"},
			{"  --password 'S3cr3t!pw' \\", "S3cr3t!pw"},
			{`mysql --password 'S3cr3t!pw' -u root`, "S3cr3t!pw"},
			{`curl -u admin:S3cr3tpw https://example.com/api`, "S3cr3tpw"},
			{`gpg --batch --passphrase Xk9mQ2vLp7wR --decrypt file.gpg`, "Xk9mQ2vLp7wR"},
			{`redis-server --requirepass Xk9mQ2vLp7wR`, "Xk9mQ2vLp7wR"},
			{"db.example.com:5432:app:deploy:Xk9mQ2vLp7wR", "Xk9mQ2vLp7wR"},
			{`echo 'db.example.com:5432:app:deploy:Xk9mQ2vLp7wR' >> ~/.pgpass`, "Xk9mQ2vLp7wR"},
			{"root:$6$saltsalt$0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ./0123456789ab:19000:0:99999:7:::", "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"},
		})
	})
}

func TestShellPatterns(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"sed -i 's/^password=.*/password=/' config.ini",
			`grep -E '^passwd:[^#]*\s(systemd)' /etc/nsswitch.conf`,
			`		sed -E -i "${DPKG_ROOT}/etc/nsswitch.conf" -e '/^passwd:\s[^#]*$/ s/$/ systemd/' -e '/^passwd:\s.*#/ s/#/ systemd #/'`,
			`sed -i "s/^api_key = .*/api_key = $API_KEY/" settings.toml`,
			`    if [[ "$token" =~ [[:alnum:]] && ! "$token" =~ "=" ]]; then`,
			`    if [ "${authkey: -4}" != ".pub" ]; then`,
			`    short="${token:0:8}"`,
			"\t\t\tulimit -p unlimited",
			`	local opt__publish="$opt_common $opt_mani $opt_feat $opt_lock $opt_parallel --allow-dirty --dry-run --token --no-verify --index --registry --target --target-dir"`,
			`            COMPREPLY=( $(compgen -W "--uid --subuser --access-key --os-user --email --auth_uid --secret --os-secret --gen-access-key --gen-secret \`,
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{"sed -i 's/^password=.*/password=S3cr3tpw9/' config.ini", "S3cr3tpw9"},
			{`sed -i "s/^api_key = .*/api_key = sk_live_51HfQx2eZvKYlo2C8aZq7rT3u/" settings.toml`, "sk_live_51HfQx2eZvKYlo2C8aZq7rT3u"},
			{`PASSWORD='.*Xk9mQ2vLp7wR'`, "Xk9mQ2vLp7wR"},
			{`DB_PASSWORD="${DB_PASSWORD:-Xk9mQ2vLp7wR}"`, "Xk9mQ2vLp7wR"},
			{`sudo -S -p '' ulimit <<< 'Xk9mQ2vLp7wR'`, "Xk9mQ2vLp7wR"},
			{`cargo publish --token Xk9mQ2vLp7wRz8 --registry crates-io`, "Xk9mQ2vLp7wRz8"},
			{`app --password -Xk9mQ2vLp7wR --user admin`, "Xk9mQ2vLp7wR"},
			{`radosgw-admin user modify --uid=app --access-key AKIAIOSFODNN7EXAMPLE --secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
		})
	})
}

func TestShellDefaultsAndPrograms(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"__grub_mkpasswd_pbkdf2_program=\"grub-mkpasswd-pbkdf2\"",
			"PASSWD_CMD=/usr/bin/passwd",
			"\tlocal prefix=\"${PASSWORD_STORE_DIR:-$HOME/.password-store/}\"",
			`: "${TOKEN_FILE:=$XDG_CONFIG_HOME/app/token}"`,
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{`PASSWORD_CMD="Xk9mQ2vLp7wR"`, "Xk9mQ2vLp7wR"},
			{`TOKEN_PROGRAM=ghp_aBcD1234eFgH5678iJkL9012mNoP3456qRsT`, "ghp_aBcD1234eFgH5678iJkL9012mNoP3456qRsT"},
			{`DB_PASSWORD="${DB_PASSWORD:-Xk9mQ2vLp7wR}"`, "Xk9mQ2vLp7wR"},
			{`: "${API_TOKEN:=Xk9mQ2vLp7wRz8}"`, "Xk9mQ2vLp7wRz8"},
			{`PASSWORD="${PASSWORD:-hunter2$x9}"`, "hunter2"},
		})
	})
}

// Lines of shell plugins, themes, completions and tests as ohmyzsh/ohmyzsh, nvm-sh/nvm and
// dokku/dokku (all MIT) write them: a shell's own names (pwd, aliases, a variable's
// directory, a prompt) under names that read as a password's, and commands whose words
// after a flag are no credentials. The rows of secrets are made up.
func TestShellPluginShapes(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"alias pw='plz watch'",
			"alias wpwd='wp widget delete'",
			"alias -g tokens='grep -c token'",
			"local pwd='%{$fg[blue]%}%~%{$reset_color%}'",
			`local pwd="%{$fg[yellow]%}%c%{$reset_color%}"`,
			`  pwd=("${(s:/:)PWD/#$TEST_ROOT/~}")`,
			"  PASSWORD_STORE_DIR=$XDG_DATA_HOME/work/pass pass $@",
			`ACTUAL="$(PWD=$TEST_DIR/no-nesting-both/a/b/c nvm_find_project_dir)"`,
			`  config_export app "$APP" >"$TMP_WORK_DIR/01-app-env.sh"`,
			`changeset="3abb98124e8d30c9652976c9d34a7380036083b5"`,
			`B64URL="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_="`,
			`    basic_auth="$(htpasswd -nb "$basic_auth_username" "$basic_auth_password" | sed -e s/\\$/\\$\\$/g)"`,
			"// ConfigSecretValues contains the values for the config secret helm chart",
			`SHA256:ABC123ABC123+abc123abc123Zabc123abcZ123abc NAME="admin" SSHCOMMAND_ALLOWED_KEYS="no-agent-forwarding,no-user-rc,no-X11-forwarding"`,
			"  '(--api)--api[Use a specific API instance (defaults to /ip4/127.0.0.1/tcp/5001).]' \\\n  '(--cid-base)--cid-base[Multibase encoding used for version 1 CIDs in output.]' \\",
			"dokku    ALL=NOPASSWD:SETENV:/usr/bin/docker,/usr/bin/docker-container-healthchecker,/usr/bin/docker-image-labeler",
			"alias mysqlstatus='mysqladmin5 -u root -p ping'",
			"      PWD=`cd \"$DIR\";pwd`",
			`value="$(echo 'return true' | base64 -w 0)"`,
		)
		// wslpath -u 'C:\Program Files\…': a drive and a directory, not a user and a password
		// (the path itself is rewritten as every absolute Windows path is).
		out := san.NewSession(SessionHints{}).SanitizeText(`"$(wslpath -u 'C:\Program Files\Sublime Text\sublime_text.exe' 2>/dev/null)"`)
		require.NotContains(t, out, "[redacted")
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{"htpasswd -nb admin Zx8kq2pLm9 > .htpasswd", "Zx8kq2pLm9"},
			{"htpasswd -b .htpasswd admin Zx8kq2pLm9", "Zx8kq2pLm9"},
			{"htpasswd -Bb .htpasswd admin Zx8kq2pLm9", "Zx8kq2pLm9"},
			{"export API_PASSWORD=$ecretPa55/word", "$ecretPa55/word"},
			{"git config --global github.token Zx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
			{`API_KEYS="k8Zx2pLq9mW3vR7t,Qz4nB8cX1dF6gH2j"`, "k8Zx2pLq9mW3vR7t"},
			{"curl -u admin:Zx8kq2pLm9 https://ci.internal/api", "Zx8kq2pLm9"},
			{"alias deploy='DEPLOY_TOKEN=Zx8kq2pLm9Qw4rT7 ./deploy.sh'", "Zx8kq2pLm9Qw4rT7"},
			{"mysqladmin -u root -pZx8kq2pLm9 status", "Zx8kq2pLm9"},
			{`psexec \\host -u admin -p Zx8kq2pLm9 cmd`, "Zx8kq2pLm9"},
			{"echo -n 'Zx8kq2pLm9' | base64", "Zx8kq2pLm9"},
			{"deploy ALL=(ALL) NOPASSWD: ALL\nDB_PASSWORD=Zx8kq2pLm9", "Zx8kq2pLm9"},
		})
	})
}
