"""A rolled table effect for a character, as the Record-a-game form posts it (the tests' one builder of it)."""

from campaigns import services


def rolled_effect(campaign, user, character, rows: str, seed: int) -> dict:
    table = services.create_table(campaign, user, kind="injury", name="Scars", die="D6", rows_text=rows)
    roll = services.roll_on_table(table, seed=seed)
    return {
        "character": character.pk,
        "name": character.name,
        "table": table.pk,
        "table_name": table.name,
        "text": roll.row["text"],
        "attributes": roll.row["attributes"],
        "roll": {"seed": roll.seed, "die": table.die, "dice": list(roll.dice), "result": roll.result},
    }
