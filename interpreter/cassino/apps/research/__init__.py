"""For researchers: the step-wise game (stepwise), what a seat sees as text and tensors (views),
the OpenSpiel and PettingZoo adapters, their utility bounds and recorded rules."""
