# english_words.awk: of a sorted word list read twice, print the words that are not a
# listed word with -s, -es, -ed, -d or -ing added (dictWord strips those endings), nor a
# Roman numeral (lxvi).
NR == FNR { listed[$0] = 1; next }
{
	w = $0; n = length(w)
	if (w ~ /^m*(cm|cd|d?c?c?c?)(xc|xl|l?x?x?x?)(ix|iv|v?i?i?i?)$/) next
	if (n > 4 && substr(w, n, 1) == "s" && (substr(w, 1, n - 1) in listed)) next
	if (n > 5 && substr(w, n - 1) == "es" && (substr(w, 1, n - 2) in listed)) next
	if (n > 5 && substr(w, n - 1) == "ed" && (substr(w, 1, n - 2) in listed)) next
	if (n > 4 && substr(w, n - 1) == "ed" && (substr(w, 1, n - 1) in listed)) next
	if (n > 6 && substr(w, n - 2) == "ing" && (substr(w, 1, n - 3) in listed)) next
	if (n > 6 && substr(w, n - 2) == "ing" && ((substr(w, 1, n - 3) "e") in listed)) next
	print
}
