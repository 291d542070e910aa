"""User-facing wording for the pure modules' problems (`delivery.rules`, `delivery.tester`,
`delivery.services.purging`, `edgerules` diagnostics): they speak English to developers by code, the
pages show these translated sentences. Every sentence names its field or line."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from delivery.rules import Problem
from delivery.services import (
    IMAGE_PROBLEMS,
    MAX_PATTERNS,
    MAX_PREHEAT_URLS,
    MAX_URLS_PER_MINUTE,
    ItemProblem,
    PurgeInputError,
    PurgeWindowFull,
    UrlProblem,
)
from delivery.tester import InputProblem
from edgerules import Diagnostic, Status
from edgerules.names import FUNCTIONS, VARIABLES

PROBLEMS: Mapping[str, Promise] = {
    "required": _("Required."),
    "path_start": _("Must start with “/”."),
    "path_is_folder": _("Must name a file, not a folder."),
    "path_query": _("Must not contain “?” or “#”; give the file's path only."),
    "path_control": _("Must not contain line breaks or tabs."),
    "path_dots": _("Must not contain “.” or “..” segments."),
    "url_shape": _("Must be http://host/path, https://host/path or /path."),
    "upp_range": _("The directory level must be a whole number from 0 to 20."),
    "upp_depth": _("Level %(value)s is deeper than the path, which has "
                   "%(depth)s directory levels."),
    "etime": _("The expiry must be a UNIX time in seconds."),
    "no_secret": _("The token secret is not configured: ask an operator to set one."),
    "separator": _("Must be one of ! - _"),
    "secret_chars": _("The file secret is letters and digits only."),
    "download_name": _("The download name must not contain / \\ \" or control "
                       "characters."),
    "download_name_blank": _("The download name must not start or end with a "
                             "space."),
    "download_name_long": _("The download name must be at most 200 characters."),
    "upv": _("Must be two digits from 00 to 99."),
    "combine_count": _("List at least two files to combine."),
    "combine_name": _("Line %(line)s: “%(value)s” must be a plain file name of "
                      "the folder (no / , ? or #)."),
    "combine_kind": _("Line %(line)s: “%(value)s” must end in .js or .css."),
    "combine_mixed": _("Combine only .js files or only .css files, not both."),
    "version_unknown": _("No image version is named “%(value)s”."),
    "suffix_separator": _("Must start with the separator “%(separator)s”."),
    "suffix_chars": _("Must not contain spaces, “?” or “#”."),
    **IMAGE_PROBLEMS,
}

INPUT_PROBLEMS: Mapping[str, Promise] = {
    "header_line": _("Headers, line %(line)s: write Name: value."),
    "cookie_pair": _("Cookies, line %(line)s: write name=value."),
    "method": _("Method: choose one of the listed methods."),
    "url": _("URL: write http://host/path?query, https://host/path?query or /path?query."),
    "url_space": _("URL: must not contain spaces."),
    "ip": _("Client address: write an IPv4 or IPv6 address, e.g. 192.168.1.1."),
}

URL_PROBLEMS: Mapping[str, Promise] = {
    "url_shape": _("Line %(line)s: “%(url)s” is not an http:// or https:// URL with a host."),
    "no_urls": _("Give at least one URL."),
    "too_many": _("At most %(limit)s URLs a minute can be purged; split the list."),
}

DIAGNOSTICS: Mapping[str, Promise] = {
    "unknown-function": _("Unknown function"),
    "unknown-variable": _("Unknown variable"),
    "arity": _("Too few arguments"),
    "extra-arguments": _("Extra arguments are evaluated and ignored"),
    "unbalanced-paren": _("Unbalanced parentheses"),
    "expected-paren": _("“(” expected"),
    "stray-comma": _("Comma outside a function"),
    "stray-dollar": _("“$” must be escaped"),
    "bad-escape": _("Bad escape"),
    "unterminated-string": _("Unterminated quoted string"),
    "misplaced-break": _("“$$” must end the rule"),
    "too-deep": _("Nested too deeply"),
    "random-length": _("$_RANDOM_n needs n from 1 to 32"),
    "host-index": _("Bad sub-domain number"),
    "redirect-status": _("$REDIRECT status must be 301 or 302"),
    "exit-status": _("Bad $EXIT status"),
    "bad-regex": _("$MATCH pattern does not compile"),
    "bad-pattern": _("Pattern does not compile"),
    "unknown-group": _("The pattern has no such group"),
    "rate-limit": _("Bad rate-limit unit"),
    "missing-variable": _("Missing variable"),
    "bad-argument": _("Bad argument"),
    "bad-header": _("Bad header name"),
    "unknown-capture": _("No such $CAPTURE"),
    "protected-header": _("Protected response header"),
    "bad-method": _("Bad method"),
    "division-by-zero": _("Division by zero"),
    "body-method": _("Method not allowed with a body"),
}

# What each function does, for the editor's function reference; its usage line (optional
# parameters in brackets) comes from edgerules' own table, so the two cannot disagree.
FUNCTION_MEANINGS: Mapping[str, Promise] = {
    "WHEN": _("The rule goes on only if every condition is true; otherwise it stops and "
              "leaves no effect."),
    "NOT": _("True when E is false (empty)."),
    "ALL": _("True when every argument is true."),
    "ANY": _("True when any argument is true."),
    "OR": _("The first argument that is true (not empty)."),
    "SELECT": _("E2 if E1 is true, else E3."),
    "ENCODE_BASE64": _("E encoded in Base64."),
    "DECODE_BASE64": _("E decoded from Base64."),
    "MD5": _("The MD5 of E, in lowercase hexadecimal."),
    "SUB": _("The part of E1 from position “from” to position “to” (counted from 1; negative "
             "positions count from the end)."),
    "GT": _("True when the number E1 is greater than E2."),
    "GE": _("True when the number E1 is greater than or equal to E2."),
    "EQ": _("True when E1 and E2 are the same text."),
    "UPPER": _("E in upper case."),
    "LOWER": _("E in lower case."),
    "MATCH": _("True when the regular expression E2 matches E1; a non-empty E3 ignores case."),
    "PCALL": _("E, or the empty string when evaluating E fails."),
    "ADD_REQ_HEADER": _("Adds request header E1 with value E2."),
    "DEL_REQ_HEADER": _("Deletes request header E1."),
    "ADD_RSP_HEADER": _("Adds response header E1 with value E2; a non-empty E3 replaces an "
                        "existing one."),
    "DEL_RSP_HEADER": _("Deletes response header E1."),
    "DEL_ARG": _("Deletes query parameter E1."),
    "REDIRECT": _("Redirects to E1 with status E2 (301 or 302)."),
    "EXIT": _("Ends the request with status E1 and body E2."),
    "RANDI": _("A random whole number from E1 to E2; from 0 to E1 when E2 is empty or left "
               "out."),
    "REDIRECT404": _("When the file is not found, redirects with 302 to E1."),
    "LIMIT_RATE_AFTER": _("Sends the first E1 units of the answer (E2: k for KB, m for MB) at "
                          "full speed, then limits the rate."),
    "LIMIT_RATE": _("Limits the answer to E1 units per second (E2: k for KB, m for MB)."),
    "CAPTURE": _("Searches E1 with the regular expression E2 (a non-empty E3 ignores case) and "
                 "keeps its groups as $n.m: n is this $CAPTURE's order in the rule, m the "
                 "group; with an empty E2 the whole of E1 is $n.0. True when it matched."),
    "SET_METHOD": _("Changes the request's method to E: GET, HEAD, PUT, POST, DELETE, OPTIONS or "
                    "PATCH; a request with a body may only become PUT or POST."),
    "SET_BODY": _("Replaces the body of a PUT or POST request with E."),
    "ADD": _("E1 + E2."),
    "MOD": _("The remainder of E1 divided by E2 (E2 may not be 0)."),
    "MSUB": _("E1 − E2."),
    "MULTIPLY": _("E1 × E2."),
    "DIVIDE": _("E1 ÷ E2 (E2 may not be 0: the rule then fails and the next rules run)."),
    "BYTE": _("The code of the first character (byte) of E."),
    "FLOOR": _("The largest whole number not above E."),
    "CEIL": _("The smallest whole number not below E."),
    "GSUB": _("E1 with the text E2 replaced by E3 (which may be empty), the first N times; "
              "every time when N is empty or negative."),
    "LEN": _("The length of E, in characters."),
    "ESCAPE": _("E URL-encoded, as JavaScript's encodeURIComponent() does."),
    "UNESCAPE": _("E URL-decoded, as JavaScript's decodeURIComponent() does."),
    "MD5_BIN": _("The MD5 of E as 16 bytes (e.g. for $ENCODE_BASE64)."),
    "UNIXT": _("The UNIX time of the date and time given (UTC)."),
    "INT": _("The number E1, written in base E2, in base E3 (both 10 when left out)."),
    "STRF_TIME": _("The UNIX time E1 as year, month, day, hour and minute (UTC), joined by the "
                   "separator E2: 201802230955, or 2018-02-23-09-55 with “-”."),
}

# What each variable is, for the editor's variable reference (edgerules.names.VARIABLES).
VARIABLE_MEANINGS: Mapping[str, Promise] = {
    "IP": _("The client's IP address."),
    "HOST": _("The Host header."),
    "HOST_N": _("The n-th sub-domain of Host, from the left: for foo.bar.baz.com, $_HOST_1 is "
                "foo."),
    "GET": _("Query parameter name, not URL-decoded."),
    "POST": _("Field name of a www-form request body."),
    "HEADER": _("Request header name, written in lower case."),
    "COOKIE": _("Cookie name."),
    "RANDOM": _("8 random characters from a-z, A-Z and 0-9."),
    "RANDOM_N": _("n random characters, n from 1 to 32."),
    "URI": _("The request's path, without the query."),
    "QUERY": _("The query string, without “?”."),
    "METHOD": _("The request's method, in upper case."),
    "SCHEME": _("http or https, in lower case."),
    "TIME": _("The current UNIX time, in seconds."),
    "BODY": _("The request body, its first 16 KB."),
    "GEOIP_COUNTRY_CODE": _("The client's country, as its two-letter ISO 3166 code (CN, US…)."),
    "GROUP": _("Group n of the rule's pattern."),
    "CAPTURE": _("Group m of the rule's n-th $CAPTURE."),
}

STEP_STATUS: Mapping[str, Promise] = {
    Status.APPLIED: _("applied"),
    Status.STOPPED: _("stopped by $WHEN"),
    Status.FAILED: _("failed"),
    Status.ENDED: _("ended the rule set"),
    Status.NOT_MATCHED: _("pattern not matched"),
    Status.DEBUG_SKIPPED: _("skipped (in test: the request is not from a test address and has "
                            "no preview header)"),
    Status.OFF: _("skipped (off)"),
    Status.NOT_REACHED: _("not reached"),
}


# The name of each field a problem may name, for a problem shown away from its field.
FIELD_LABELS: Mapping[str, Promise] = {
    "path": _("File path"),
    "directory": _("Folder"),
    "files": _("Files"),
    "name": pgettext_lazy("label", "Name"),
    "params": _("Parameters"),
    "secret": _("File secret"),
    "separator": _("Separator"),
    "suffix": _("Suffix"),
    "token_secret": _("Token secret"),
    "url": _("URL"),
    "version": _("Version"),
    "etime": _("Expiry"),
    "_upd": _("Download name (_upd)"),
    "_upp": _("Directory level (_upp)"),
    "_upv": _("Version (_upv)"),
}


# Problems that are about the whole form, not one field: never prefixed with a field's name.
FIELDLESS = frozenset({"no_secret", "image_key", "image_empty"})


def field_label(code: str) -> str:
    """A field's name in words; an image processing key is its own name (`fw`, `rotate`)."""
    return str(FIELD_LABELS.get(code, code))


def problem_text(problem: Problem, *, named: bool = False) -> str:
    """The sentence of a problem. At its field (the default) the field is not named again;
    `named` puts the field's name in words first, for a problem listed away from any field."""
    template = PROBLEMS.get(problem.code)
    text = (problem.message if template is None
            else str(template) % {"field": field_label(problem.field), **problem.params})
    if not named or problem.code in FIELDLESS:
        return text
    return gettext("%(field)s: %(problem)s") % {"field": field_label(problem.field),
                                                 "problem": text}


def input_problem_text(problem: InputProblem) -> str:
    template = INPUT_PROBLEMS.get(problem.code)
    return str(template) % {"line": problem.line} if template else problem.message


def url_problem_text(problem: UrlProblem) -> str:
    return str(URL_PROBLEMS[problem.code]) % {
        "line": problem.line, "url": problem.url, "limit": MAX_URLS_PER_MINUTE}


def purge_input_texts(error: PurgeInputError) -> list[str]:
    return [url_problem_text(problem) for problem in error.problems]


REFRESH_PROBLEMS: Mapping[str, Promise] = {
    "no_items": _("Give at least one line."),
    "too_many": _("At most %(limit)s lines a request; send the rest in another."),
    "url_shape": _("Line %(line)s: “%(item)s” is not an address starting with http:// or "
                   "https:// and a host."),
    "wildcard": _("Line %(line)s: “%(item)s” has a “*”; preheat takes whole URLs (use rule "
                  "refresh for patterns)."),
    "unknown_domain": _("Line %(line)s: “%(item)s” is not on a domain of this account."),
    "other_service": _("Line %(line)s: “%(item)s” is on a domain of the service %(service)s, "
                       "not of this domain's service; choose that domain first."),
}


def refresh_problem_texts(problems: list[ItemProblem], *, patterns: bool) -> list[str]:
    limit = MAX_PATTERNS if patterns else MAX_PREHEAT_URLS
    return [str(REFRESH_PROBLEMS[problem.code]) % {
        "line": problem.line, "item": problem.item, "service": problem.service,
        "limit": limit} for problem in problems]


def window_full_text(error: PurgeWindowFull) -> str:
    return gettext(
        "At most %(limit)s URLs may be purged a minute: %(used)s were sent in the last "
        "minute and this request has %(asked)s. Nothing was sent; try again in %(wait)s "
        "seconds."
    ) % {"limit": MAX_URLS_PER_MINUTE, "used": error.used, "asked": error.asked,
         "wait": error.retry_in}


def function_reference() -> list[dict[str, str]]:
    """Every function of the rewrite language for the editor: usage (optional parameters in
    brackets, from edgerules' table), meaning, and which parameters may be left out."""
    reference = []
    for name, signature in FUNCTIONS.items():
        optional = [parameter.name for parameter in signature.parameters if parameter.optional]
        reference.append({
            "name": name,
            "usage": signature.usage(),
            "meaning": str(FUNCTION_MEANINGS[name]),
            "optional": gettext("%(names)s may be left out (empty string).") % {
                "names": ", ".join(optional)} if optional else "",
        })
    return reference


def variable_reference() -> list[dict[str, str]]:
    """Every variable of the rewrite language for the editor, in the public page's order."""
    return [{"name": entry.spelling, "meaning": str(VARIABLE_MEANINGS[entry.kind])}
            for entry in VARIABLES]


def diagnostic_dict(diagnostic: Diagnostic) -> dict[str, object]:
    """The edgerules diagnostic for the editor, with a translated title before the detail."""
    data = diagnostic.as_dict()
    title = DIAGNOSTICS.get(diagnostic.code)
    data["title"] = str(title) if title else diagnostic.code
    data["text"] = gettext("Line %(line)s, column %(column)s: %(title)s (%(detail)s)") % {
        "line": diagnostic.line, "column": diagnostic.column, "title": data["title"],
        "detail": diagnostic.message}
    return data


# The edge configuration's sections (edgeconfig.SECTIONS) as staff read them.
SECTION_NAMES: dict[str, Promise] = {
    "token": _("Token authentication"),
    "separator": _("Separator"),
    "versions": _("Image versions"),
    "rewrite": _("Rewrite rules"),
    "cors": _("CORS headers"),
    "referer": _("Referer check"),
    "ip_ban": _("IP blacklist"),
    "ua": _("User-Agent whitelist"),
    "https": _("HTTPS"),
    "optimise": _("URL and page optimisation"),
    "region": _("Access by region"),
    "origin_auth": _("Origin authentication"),
    "external_links": _("External links"),
    "waf": _("Web application firewall"),
    "body_limit": _("Request size limit"),
    "ip_limits": _("Access limits per IP address"),
}


def section_word(key: str) -> str:
    """A section's name in words (the key itself for one this list does not know)."""
    return str(SECTION_NAMES.get(key, key))
