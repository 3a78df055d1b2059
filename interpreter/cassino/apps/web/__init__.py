"""`cassino serve`: play in the browser, against the computer or friends on a network.

``server`` (the Starlette application and starting it), ``tables`` (tables, seat
tokens, the records folder), ``views`` (what one seat may see, as JSON),
``protocol`` (what a browser may send), ``lobby`` (rules and new tables), and
``static/`` (the pages and ES modules, no build step). Needs the ``web`` extra.
"""
