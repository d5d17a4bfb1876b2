# Campaign models arrive with the campaigns issue.
