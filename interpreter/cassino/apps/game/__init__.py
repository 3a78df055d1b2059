"""At a game: one game's session, its record, seats, hand summaries and the how-to, and the terminal
front end (`cassino play`). The browser (apps/web) plays through the same session and records."""
