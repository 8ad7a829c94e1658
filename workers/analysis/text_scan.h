/* Small text matchers for the parts of TOOLS.md 3.5.1 that read source as
 * text: the regex fallback and the sort/hash scans. They implement the
 * spec's patterns by hand (a word boundary is between a word character and
 * anything else) so that no regular-expression engine meets untrusted text
 * and every match is linear in the input.
 *
 * Word characters: ASCII letters, digits, '_' and every byte >= 0x80 (the
 * bytes of non-ASCII letters in UTF-8, which Python's \w also counts). */
#ifndef CC_ANALYSIS_TEXT_SCAN_H
#define CC_ANALYSIS_TEXT_SCAN_H

#include <stdbool.h>
#include <stddef.h>

bool cx_is_word(unsigned char c);

/* Is there a word boundary at position i of s[0..n)? */
bool cx_boundary(const char *s, size_t n, size_t i);

/* Does s[0..n) contain word as a whole word (\bword\b)? */
bool cx_has_word(const char *s, size_t n, const char *word);

/* Does s[0..n) contain lit with a word boundary just before it (\blit)? lit
 * may end in non-word characters ("sorted(" ). */
bool cx_has_prefixed(const char *s, size_t n, const char *lit);

/* Does s[0..n) contain the literal text lit anywhere? */
bool cx_has_text(const char *s, size_t n, const char *lit);

/* Length of the identifier (\w+) at s[i..n), 0 when none. */
size_t cx_word_len(const char *s, size_t n, size_t i);

/* Index of the first non-blank (space/tab/CR/FF/VT) byte at or after i. */
size_t cx_skip_blanks(const char *s, size_t n, size_t i);

#endif
