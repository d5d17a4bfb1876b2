"""The campaign app's refusal: raised by its services and permission checks, shown to people as is."""


class CampaignError(ValueError):
    """The operation is not allowed; the message says why, for people."""
