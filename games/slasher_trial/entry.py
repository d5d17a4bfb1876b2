"""The Slasher trial in the game registry."""

from core.games.registry import GameEntry, InProgress

from .models import Trial


def in_progress(user, limit: int) -> list[InProgress]:
    trials = Trial.objects.for_participant(user).exclude(state=Trial.OVER)[:limit]
    return [
        InProgress(
            url=trial.get_absolute_url(),
            name=trial.name,
            game="The Slasher trial",
            state=trial.get_state_display(),
            at=trial.created_at,
        )
        for trial in trials
    ]


ENTRY = GameEntry(
    slug="slasher-trial",
    title="The Slasher trial",
    blurb="The app referees a trial: the Trial Grounds, Energy, actions and the weighted draw.",
    home_url_name="trial-list",
    order=40,
    in_progress=in_progress,
)
