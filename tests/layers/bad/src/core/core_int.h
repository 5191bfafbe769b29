/* fixture: a header private to core/ */
