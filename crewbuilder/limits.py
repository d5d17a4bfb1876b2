"""The most the app stores or prints: far above what a real player uses, low
enough that no request can hold a worker for long (docs/limits.md).

Every entry point checks these: the crew editor (crew_edits), crew-file import
(crewfile.check_storable, a ``bad-format`` report), the campaign and Ghoulash
forms, and the roster PDF (crewbuilder.pdf refuses a crew beyond them before
laying anything out; the HTML budget of every PDF is core.pdf's). Plain numbers, no Django import, so the CLI, the
benchmarks and the tests read the same values.
"""

# A Cybernekr0 crew. The rules field 3 to 7 characters, each carrying 5 + Strength
# items (small ones count half); a draft may go over and is shown as not valid.
# No legal crew is over any of these (docs/limits.md).
CHARACTERS_MAX = 12
# Copies counted: 3 knives are 3. The most a legal character carries: Strength +3, Deformed
# and Gifted make it 5, Extra limbs adds one, so 11 items, 22 of them small.
GEAR_MAX_PER_CHARACTER = 22
# Each of the catalogue's 21 traits at most once: with the three that cost points back, one
# character can take them all in a legal crew.
TRAITS_MAX_PER_CHARACTER = 21
# The catalogue's 10 body-mods (a second copy of one is legal but does nothing more).
BODY_MODS_MAX_PER_CHARACTER = 10
CHARACTER_NOTES_MAX = 1000  # printed on the character's card
# (names: 100 characters; crew notes: 5,000; budget: 10,000 -- crew_edits)

# A Ghoulash card and a campaign.
CARD_TEXT_MAX = 1000
CARD_COUNT_MAX = 30
CAMPAIGN_DESCRIPTION_MAX = 5000
CAMPAIGN_HOUSE_RULES_MAX = 5000
TREASURE_PER_GAME_MAX = 99  # tokens one crew carries off in one game

# The budget of one PDF (HTML size, layout time) is core.pdf's, shared by every app.
