"""The interview domain: question bank, loops and stages, live rooms, answers, reviews, scoring."""
