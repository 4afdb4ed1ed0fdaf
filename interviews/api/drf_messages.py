"""DRF's messages that our API can answer with and that DRF's own catalogues leave in
English (its zh_Hant one is far from complete; a few are missing in zh_Hans too). Listed
here so `makemessages` puts them in our catalogues, which Django consults first
(LOCALE_PATHS): a 401 or a 429 reads like every other error in the user's language.
tests/interviews/api/test_error_language.py checks each is translated. (Throttling's
"Expected available in N seconds." DRF formats before translating it: errors.py words
that one itself.)"""

from django.utils.translation import gettext_noop

MESSAGES: tuple[str, ...] = (
    gettext_noop("A server error occurred."),
    gettext_noop("Malformed request."),
    gettext_noop("Incorrect authentication credentials."),
    gettext_noop("Authentication credentials were not provided."),
    gettext_noop('Unsupported media type "{media_type}" in request.'),
    gettext_noop("Could not satisfy the request Accept header."),
    gettext_noop("Request was throttled."),
    gettext_noop("Must be a valid boolean."),
    gettext_noop("This field cannot be blank."),
    gettext_noop("This field cannot be null."),
    gettext_noop("A valid biginteger is required."),
    gettext_noop("This value does not match the required pattern."),
    gettext_noop("Must be a valid UUID."),
    gettext_noop("Datetime has wrong format. Use one of these formats instead: {format}."),
    gettext_noop("Datetime value out of range."),
    gettext_noop('Invalid datetime for the timezone "{timezone}".'),
    gettext_noop("Date has wrong format. Use one of these formats instead: {format}."),
    gettext_noop("Duration has wrong format. Use one of these formats instead: {format}."),
    gettext_noop("Ensure this field has at least {min_length} elements."),
    gettext_noop("Ensure this field has no more than {max_length} elements."),
    gettext_noop('Expected a dictionary of items but got type "{input_type}".'),
    gettext_noop("This dictionary may not be empty."),
    gettext_noop("Incorrect type. Expected pk value, received {data_type}."),
    gettext_noop("Object with {slug_name}={value} does not exist."),
)
